-- error: 4:9: `sqrt` is a builtin function: a helper cannot take its name
-- hint: rename the helper
-- A helper would be ignored in favour of the builtin, so its name is refused.
fun f32 sqrt(f32 x) = x
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => sqrt(x), xs)
