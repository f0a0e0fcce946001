-- The stream is under a branch on the thread index: threads of one block
-- disagree on reaching it, so no barrier may be placed in it.
-- stream: 9:14 untiled
-- input: 9:14 yc invariant=0 global
-- reason: 9:14 yc the stream is under a branch (8:12) that varies with dimension 0
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (int i) =>
        if i < 10
        then streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) =>
                         loop (acc) = for k < c do acc + yc[k] in acc
                      , ys, 0f32)
        else xs[i]
     , iota(n))
