-- error: 4:52: `yc` is bound twice here
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (int kk, [f32, c] yc, f32 yc) => yc, ys, 0f32)
     , xs)
