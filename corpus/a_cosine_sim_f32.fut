-- Cosine similarity between every row of X and every row of Y: one stream
-- keeps the dot product and both squared norms.
fun [[f32, m], n] main([[f32, d], n] X, [[f32, d], m] Y) =
  map(fn [f32, m] ([f32, d] x) =>
        map(fn f32 ([f32, d] y) =>
              let (xy, xx, yy) =
                streamSeq(fn (f32, f32, f32) (int k0, [f32, c] a, [f32, c] b, f32 xy, f32 xx, f32 yy) =>
                            loop (xy, xx, yy) = for k < c do
                              (xy + a[k] * b[k], xx + a[k] * a[k], yy + b[k] * b[k])
                            in (xy, xx, yy),
                          x, y, 0f32, 0f32, 0f32)
              in xy * rsqrt(xx * yy + 1e-12f32),
            Y),
      X)
