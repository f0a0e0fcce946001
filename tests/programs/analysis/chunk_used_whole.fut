-- The chunk is passed whole to an inner stream: it cannot be replaced by
-- element reads from shared memory, so it stays in global memory; the inner
-- stream over it is tiled instead (its array is invariant, too).
-- stream: 10:9 untiled
-- reason: 10:9 yc its chunk is used whole
-- stream: 12:21 tiled 1-D
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        -- outer
        streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) =>
                    -- inner, over the outer chunk
                    streamSeq(fn f32 (int k2, [f32, c2] zc, f32 a2) =>
                                loop (a2) = for t < c2 do a2 + x * zc[t] in a2
                             , yc, acc)
                 , ys, 0f32)
     , xs)
