-- error: 5:35: the chunk size must be a fresh name, not `n`
-- hint: chunks may have any length
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (int kk, [f32, n] xc, f32 acc) =>
                    loop (acc) = for k < n do acc + xc[k] in acc
                 , xs, 0f32)
     , xs)
