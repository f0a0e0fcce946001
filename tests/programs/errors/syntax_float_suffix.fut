-- error: 3:29: a float literal cannot have the integer suffix `i32`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => x + 3.0i32, xs)
