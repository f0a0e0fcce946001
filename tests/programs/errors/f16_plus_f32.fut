-- error: 4:27: `+` needs operands of one type, got f16 and f32
-- hint: write `1f16`
fun [f16, n] main([f16, n] xs) =
  map(fn f16 (f16 x) => x + 1f32, xs)
