-- error: 4:31: `kk` is both the chunk size and a parameter of this lambda
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (int kk, [f32, kk] yc, f32 acc) =>
                    loop (acc) = for k < kk do acc + yc[k] * x in acc
                 , ys, 0f32)
     , xs)
