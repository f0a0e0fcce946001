-- error: 3:38: iota takes a size (an int), got f32
fun [int, n] main([f32, n] xs) =
  map(fn int (f32 x) => let r = iota(x) in 0, xs)
