-- error: 3:29: expected a name or a tuple of names, found `in`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => let in = x in x, xs)
