-- 3-D gravitational n-body: softened acceleration on every body from all
-- bodies (Plummer softening, rsqrt), f32. Streams positions and masses.
fun ([f32, n], [f32, n], [f32, n]) main([f32, n] px, [f32, n] py, [f32, n] pz, [f32, n] mass) =
  let eps2 = 0.0025f32 in
  map(fn (f32, f32, f32) (f32 xi, f32 yi, f32 zi) =>
        streamSeq(fn (f32, f32, f32) (int kk, [f32, blk] xj, [f32, blk] yj, [f32, blk] zj, [f32, blk] mj,
                                      f32 ax, f32 ay, f32 az) =>
                    loop (ax, ay, az) = for j < blk do
                      let dx = xj[j] - xi in
                      let dy = yj[j] - yi in
                      let dz = zj[j] - zi in
                      let r2 = dx*dx + dy*dy + dz*dz + eps2 in
                      let inv = rsqrt(r2) in
                      let s = mj[j] * inv * inv * inv in
                      (ax + s*dx, ay + s*dy, az + s*dz)
                    in (ax, ay, az)
                 , px, py, pz, mass, 0f32, 0f32, 0f32)
     , zip(px, py, pz))
