-- 3-D n-body: the softened gravitational acceleration on every body from
-- all bodies (GPU Gems 3, ch. 31), 20 flops an interaction. Positions and
-- masses are separate arrays, all four streamed by every thread.
fun ([f32, n], [f32, n], [f32, n])
main(f32 eps2, [f32, n] xs, [f32, n] ys, [f32, n] zs, [f32, n] ms) =
  map(fn (f32, f32, f32) (f32 xi, f32 yi, f32 zi) =>
        streamSeq(fn (f32, f32, f32) (int kk, [f32, c] xc, [f32, c] yc, [f32, c] zc,
                                      [f32, c] mc, f32 ax, f32 ay, f32 az) =>
                    loop (ax, ay, az) = for j < c do
                      let dx = xc[j] - xi in
                      let dy = yc[j] - yi in
                      let dz = zc[j] - zi in
                      let d2 = dx * dx + dy * dy + dz * dz + eps2 in
                      let inv = rsqrt(d2) in
                      let s = mc[j] * (inv * inv * inv) in
                      (ax + dx * s, ay + dy * s, az + dz * s)
                    in (ax, ay, az)
                 , xs, ys, zs, ms, 0f32, 0f32, 0f32)
     , xs, ys, zs)
