-- The loop around the stream runs counts[i] times: a bound that varies with
-- the dimension the block would span.
-- stream: 9:11 untiled
-- input: 9:11 yc invariant=0 global
-- reason: 9:11 yc the stream is under a loop bound (8:35) that varies with dimension 0
fun [f32, n] main([int, n] counts, [f32, m] ys) =
  map(fn f32 (int cnt) =>
        loop (s = 0f32) = for r < cnt do
          streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) =>
                      loop (acc) = for k < c do acc + yc[k] in acc
                   , ys, s)
        in s
     , counts)
