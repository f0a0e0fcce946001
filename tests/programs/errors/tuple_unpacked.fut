-- error: 3:25: a tuple of 2 values must be taken apart
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => let t = (x, x) in x, xs)
