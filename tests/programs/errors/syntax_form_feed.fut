-- error: 4:24: unexpected character U+000C (form feed)
-- hint: separate tokens with spaces
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => x + 1.0f32, xs)
