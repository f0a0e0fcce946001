-- Each row's count of elements below a threshold and the sum taken away of
-- them, one loop carrying both under an `if` that reads no carried value: a
-- path that keeps them adds nothing, so each lane folds its share under the
-- same test and the shares are added (the subtraction adds the negated terms).
-- rows: 1
-- reduction: 9:22 split +,+
fun [f32, n] main([[f32, m], n] A, f32 t) =
  map(fn f32 ([f32, m] r) =>
        let (c, d) = loop (c = 0, d = 0f32) = for k < m do
                       if r[k] < t then (c + 1, d - r[k]) else (c, d)
                     in (c, d)
        in f32(c) + d,
      A)
