-- Per point, solve sum_j w_j exp(-a_j x) = frac * sum_j w_j for x >= 0 by
-- 12 Newton steps; every step streams the (w, a) arrays for f and f'.
-- A stream inside a loop, two accumulators, f64 exp.
fun [f64, n] main([f64, n] frac, [f64, m] w, [f64, m] a) =
  let total = loop (s = 0f64) = for j < m do s + w[j] in s in
  map(fn f64 (f64 fr) =>
        let target = fr * total in
        loop (x = 0f64) = for it < 12 do
          let (f, df) = streamSeq(fn (f64, f64) (int j0, [f64, c] wc, [f64, c] ac, f64 f, f64 df) =>
                                    loop (f, df) = for j < c do
                                      let e = wc[j] * exp(-(ac[j] * x)) in
                                      (f + e, df - ac[j] * e)
                                    in (f, df)
                                 , w, a, 0f64, 0f64)
          in x - (f - target) / df
        in x
     , frac)
