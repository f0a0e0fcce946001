-- error: 4:31: float literal 3.4e38bf16 does not fit in bf16
-- hint: the largest bf16 is about 3.39e+38; use the suffix f32
fun [bf16, n] main([bf16, n] xs) =
  map(fn bf16 (bf16 x) => x + 3.4e38bf16, xs)
