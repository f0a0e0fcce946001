-- 1-D Gaussian kernel density estimate at ne evaluation points from ns samples,
-- bandwidth h given as a scalar. f32 exp.
fun [f32, ne] main(f32 h, [f32, ne] xe, [f32, ns] samples) =
  let inv2h2 = 0.5f32 / (h * h) in
  let norm = 1f32 / (f32(ns) * h * 2.5066283f32) in
  map(fn f32 (f32 x) =>
        norm * streamSeq(fn f32 (int s0, [f32, c] sc, f32 d) =>
                           loop (d) = for s < c do
                             let u = x - sc[s] in d + exp(0f32 - u * u * inv2h2)
                           in d
                        , samples, 0f32)
     , xe)
