-- error: 5:52: accumulator `acc` is declared int but starts as `0f32`, which is f32
-- hint: declare it `f32 acc`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (int kk, [f32, c] xc, int acc) =>
                    loop (acc) = for k < c do acc + xc[k] in acc
                 , xs, 0f32)
     , xs)
