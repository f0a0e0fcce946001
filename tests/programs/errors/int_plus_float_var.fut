-- error: 4:35: `+` needs operands of one type, got f32 and int
-- hint: convert one side
fun [f32, n] main([f32, n] xs, int k) =
  map(fn f32 (f32 x) => let y = x + k in y, xs)
