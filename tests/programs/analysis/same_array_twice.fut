-- The same array streamed as two chunks: staged once, the second chunk
-- reads the first one's tile (one copy, one buffer).
-- stream: 9:9 tiled 1-D
-- input: 9:9 a invariant=0 shared
-- input: 9:9 b invariant=0 shared
-- reason: 9:9 b the same array as `a`, staged the same way
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (int kk, [f32, c] a, [f32, c] b, f32 acc) =>
                    loop (acc) = for k < c do acc + a[k] * b[k] * x in acc
                 , ys, ys, 0f32)
     , xs)
