-- error: 3:38: size 4294967296 does not fit in a 32-bit int
-- hint: sizes are at most 2,147,483,647
fun [f32, n] main([f32, n] xs, [f32, 4294967296] ys) =
  map(fn f32 (f32 x) => x + ys[0], xs)
