-- Gaussian-process prediction with an RBF kernel in 3-D: mean = sum_j alpha_j k(x, x_j)
-- and the kernel mass sum_j k(x, x_j)^2 for each test point. f32 exp, helpers.
fun f32 sqdist3(f32 ax, f32 ay, f32 az, f32 bx, f32 by, f32 bz) =
  let dx = ax - bx in
  let dy = ay - by in
  let dz = az - bz in
  dx*dx + dy*dy + dz*dz

fun f32 rbf(f32 d2, f32 ell) = exp(-0.5f32 * d2 / (ell * ell))

fun ([f32, nt], [f32, nt]) main(f32 ell, [f32, nt] tx, [f32, nt] ty, [f32, nt] tz,
                                [f32, ntr] xx, [f32, ntr] xy, [f32, ntr] xz, [f32, ntr] alpha) =
  map(fn (f32, f32) (f32 a, f32 b, f32 c) =>
        streamSeq(fn (f32, f32) (int j0, [f32, m] px, [f32, m] py, [f32, m] pz, [f32, m] al,
                                 f32 mu, f32 kk) =>
                    loop (mu, kk) = for j < m do
                      let kv = rbf(sqdist3(a, b, c, px[j], py[j], pz[j]), ell) in
                      (mu + al[j] * kv, kk + kv * kv)
                    in (mu, kk)
                 , xx, xy, xz, alpha, 0f32, 0f32)
     , zip(tx, ty, tz))
