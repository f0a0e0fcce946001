-- error: 3:27: unexpected character '$'
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => x $ 2f32, xs)
