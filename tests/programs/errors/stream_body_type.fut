-- error: 6:21: the streamSeq body must give the next accumulator value (f32); it gives int
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) =>
                    -- returns the chunk size, not the accumulator
                    c
                 , xs, 0f32)
     , xs)
