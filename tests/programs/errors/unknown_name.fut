-- error: 4:25: unknown name `xx`
-- hint: did you mean `x`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => xx * 2f32, xs)
