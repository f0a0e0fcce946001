-- error: 4:29: float literal 65520f16 does not fit in f16
-- hint: the largest f16 is about 6.55e+04; use the suffix f32
fun [f16, n] main([f16, n] xs) =
  map(fn f16 (f16 x) => x + 65520f16, xs)
