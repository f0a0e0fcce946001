-- error: 5:9: this streamSeq lambda takes 1 chunk and 1 accumulator, so 2 arguments after it; got 3
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) =>
        -- one array, one accumulator, but three arguments
        streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) =>
                    loop (acc) = for k < c do acc + xc[k] in acc
                 , xs, 0f32, 1f32)
     , xs)
