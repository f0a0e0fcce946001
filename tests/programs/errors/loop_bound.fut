-- error: 3:48: a loop bound must be an int, got f32
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => loop (s = x) = for k < x do s in s, xs)
