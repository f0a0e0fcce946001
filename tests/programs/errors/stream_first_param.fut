-- error: 4:31: the first parameter of a streamSeq lambda is the chunk's start index, an int
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (f32 kk, [f32, c] xc, f32 acc) => acc
                 , xs, 0f32)
     , xs)
