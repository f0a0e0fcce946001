-- error: 4:27: `+` needs operands of one type, got f32 and int
-- hint: write `1f32` (or `1.0`)
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => x + 1, xs)
