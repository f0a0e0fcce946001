-- error: 5:47: `other` is a chunk, but its size `zz` is not the chunk size `c`
-- hint: every chunk of one streamSeq has the same size, `c`
fun [f32, n] main([f32, n] xs, [f32, m] ys, [f32, m] zs) =
  map(fn f32 (f32 x) => streamSeq(fn f32 (int kk, [f32, c] yc,
                                              [f32, zz] other, f32 acc) => acc, ys, zs, 0.0f32), xs)
