-- error: 3:10: unknown size `q`
fun [f32, n] main([f32, n] xs) =
  map(fn [f32, q] (f32 x) => x, xs)
