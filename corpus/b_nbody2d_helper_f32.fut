-- 2-D gravitational forces on every particle from all particles, f32.
-- The pair interaction is a helper returning a tuple; softened with sqrt.
fun (f32, f32) pairforce(f32 dx, f32 dy, f32 mj) =
  let r2 = dx*dx + dy*dy + 1e-3f32 in
  let r = sqrt(r2) in
  let f = mj / (r2 * r) in
  (f * dx, f * dy)

fun ([f32, n], [f32, n]) main([f32, n] x, [f32, n] y, [f32, n] m) =
  map(fn (f32, f32) (f32 xi, f32 yi, f32 mi) =>
        let (fx, fy) =
          streamSeq(fn (f32, f32) (int off, [f32, c] xs, [f32, c] ys, [f32, c] ms, f32 fx, f32 fy) =>
                      loop (fx, fy) = for k < c do
                        let (gx, gy) = pairforce(xs[k] - xi, ys[k] - yi, ms[k]) in
                        (fx + gx, fy + gy)
                      in (fx, fy)
                   , x, y, m, 0f32, 0f32)
        in (mi * fx, mi * fy)
     , zip(x, y, m))
