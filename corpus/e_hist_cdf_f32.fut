-- Cumulative distribution of a histogram: each bin's running count (bins at positions kk + k <= i) over the total, both folded by one streamSeq.
fun [f32, n] main([f32, n] hist) =
  map(fn f32 (int i) =>
        let (below, total) =
          streamSeq(fn (f32, f32) (int kk, [f32, c] hc, f32 s, f32 tot) =>
                      loop (s, tot) = for k < c do
                        if kk + k <= i then (s + hc[k], tot + hc[k]) else (s, tot + hc[k])
                      in (s, tot),
                    hist, 0f32, 0f32)
        in below / total,
      iota(n))
