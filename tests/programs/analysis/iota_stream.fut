-- A stream over iota has nothing to load; the array streamed with it is staged.
-- block: 0
-- stream: 8:9 tiled 1-D, partial
-- reason: 8:9 is iota values are computed from the index
-- input: 8:9 yc invariant=0 shared
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (int kk, [int, c] is, [f32, c] yc, f32 acc) =>
                    loop (acc) = for k < c do acc + f32(is[k]) * yc[k] * x in acc
                 , iota(m), ys, 0f32)
     , xs)
