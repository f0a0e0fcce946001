-- error: 4:26: unexpected character ';'
-- hint: there are no statements
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => x; xs)
