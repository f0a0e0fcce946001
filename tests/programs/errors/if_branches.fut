-- error: 3:25: the branches of `if` differ: f32 and int
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => if x > 0f32 then x else 0, xs)
