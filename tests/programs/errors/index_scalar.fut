-- error: 3:25: `x` is f32, not an array
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => x[0], xs)
