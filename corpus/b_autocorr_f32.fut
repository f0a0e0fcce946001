-- Autocorrelation of a signal for lags 0..nl-1:
-- r[lag] = (1/(n-lag)) * sum_{i < n-lag} x[i] * x[i+lag]. f32, light body.
fun [f32, nl] main(int nl, [f32, n] x) =
  map(fn f32 (int lag) =>
        let s = streamSeq(fn f32 (int i0, [f32, c] xc, f32 acc) =>
                            loop (acc) = for i < c do
                              let j = i0 + i + lag in
                              if j < n then acc + xc[i] * x[j] else acc
                            in acc
                         , x, 0f32)
        in s / f32(n - lag)
     , iota(nl))
