-- error: 4:29: `*` needs operands of one type, got bf16 and f32
-- hint: write `0.5bf16`
fun [bf16, n] main([bf16, n] xs) =
  map(fn bf16 (bf16 x) => x * 0.5, xs)
