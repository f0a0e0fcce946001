-- Electrostatic potential on an nx x ny grid (spacing h, origin 0) from k point
-- charges in the plane: phi(p) = sum_j q_j / sqrt(|p - c_j|^2 + eps^2).
fun [[f32, nx], ny] main(int nx, int ny, f32 h, [f32, k] cx, [f32, k] cy, [f32, k] q) =
  map(fn [f32, nx] (int j) =>
        let py = h * f32(j) in
        map(fn f32 (int i) =>
              let px = h * f32(i) in
              streamSeq(fn f32 (int c0, [f32, c] xs, [f32, c] ys, [f32, c] qs, f32 phi) =>
                          loop (phi) = for t < c do
                            let dx = px - xs[t] in
                            let dy = py - ys[t] in
                            phi + qs[t] * rsqrt(dx * dx + dy * dy + 1e-4f32)
                          in phi,
                        cx, cy, q, 0f32),
            iota(nx)),
      iota(ny))
