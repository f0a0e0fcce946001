-- Monte Carlo European call prices: every option (strike, volatility, maturity)
-- is priced against the same streamed set of standard normal draws. Also
-- returns the fraction of paths ending in the money. f64 exp/sqrt.
fun ([f64, no], [f64, no]) main(f64 s0, f64 rate, [f64, no] strike, [f64, no] vol, [f64, no] mat,
                                [f64, np] z) =
  map(fn (f64, f64) (f64 k, f64 sig, f64 t) =>
        let drift = (rate - 0.5f64 * sig * sig) * t in
        let diff = sig * sqrt(t) in
        let (pay, itm) =
          streamSeq(fn (f64, f64) (int p0, [f64, c] zc, f64 pay, f64 itm) =>
                      loop (pay, itm) = for p < c do
                        let st = s0 * exp(drift + diff * zc[p]) in
                        if st > k then (pay + (st - k), itm + 1f64) else (pay, itm)
                      in (pay, itm)
                   , z, 0f64, 0f64)
        in (exp(-rate * t) * pay / f64(np), itm / f64(np))
     , zip(strike, vol, mat))
