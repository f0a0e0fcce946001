-- error: 6:24: arrays streamed together must have one length: `ys` has `m`, `xs` has `n`
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (int kk, [f32, c] xc, [f32, c] yc, f32 acc) =>
                    loop (acc) = for k < c do acc + xc[k] * yc[k] in acc
                 , xs, ys, 0f32)
     , xs)
