-- error: 4:29: float literal 1e999f32 does not fit in f32
-- hint: the largest f32 is about 3.403e+38
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => x + 1e999f32, xs)
