-- Row log-softmax with an online log-sum-exp. Each element makes one pass
-- over its row carrying (running max, sum of exp relative to that max); when
-- a new maximum arrives the sum so far is rescaled by exp(old - new).
fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] xr) =>
        map(fn f32 (f32 x) =>
              let (mx, se) =
                streamSeq(fn (f32, f32) (int kk, [f32, c] ch, f32 runmax, f32 runsum) =>
                            loop (runmax, runsum) = for k < c do
                              let v = ch[k] in
                              if v > runmax
                              then (v, runsum * exp(runmax - v) + 1f32)
                              else (runmax, runsum + exp(v - runmax))
                            in (runmax, runsum),
                          xr, -3.4028235e38, 0f32)
              in x - (mx + log(se)),
            xr),
      X)
