-- error: 5:32: `-` needs operands of one type, got f16 and bf16
-- hint: convert one side
fun [f32, n] main([f16, n] xs, [bf16, n] ys) =
  map(fn f32 (f16 x, bf16 y) =>
        f32(x) + f32(max(x, x) - y), xs, ys)
