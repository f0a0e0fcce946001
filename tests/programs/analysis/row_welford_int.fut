-- Each row's mean and variance by Welford's update with an int count and
-- M2 from the old mean alone, started from a first observation of 1.0 (the
-- start values are combined before the row's shares).
-- rows: 1
-- columns: no
-- reduction: 9:26 split M2,Welford's count,mean
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        let (q, c, mu) = loop (q = 0f32, c = 1, mu = 1f32) = for k < m do
          let d = r[k] - mu in
          (q + d * d * f32(c) / f32(c + 1), c + 1, mu + d / f32(c + 1))
        in (q, c, mu)
        in mu + q / f32(c),
      A)
