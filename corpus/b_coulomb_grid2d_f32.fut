-- Electrostatic potential on a 2-D grid of ny x nx points (built from iota)
-- from nq point charges in the plane, softened 1/r, f32.
fun [[f32, nx], ny] main(int nx, int ny, [f32, nq] qx, [f32, nq] qy, [f32, nq] q) =
  let h = 1f32 / f32(nx) in
  map(fn [f32, nx] (int j) =>
        let y = f32(j) * h in
        map(fn f32 (int i) =>
              let x = f32(i) * h in
              streamSeq(fn f32 (int kk, [f32, c] cx, [f32, c] cy, [f32, c] cq, f32 v) =>
                          loop (v) = for k < c do
                            let dx = x - cx[k] in
                            let dy = y - cy[k] in
                            v + cq[k] / sqrt(dx*dx + dy*dy + 1e-6f32)
                          in v
                       , qx, qy, q, 0f32)
           , iota(nx))
     , iota(ny))
