-- error: 3:43: arrays mapped together must have one length: `ys` has `m`, `xs` has `n`
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x, f32 y) => x + y, xs, ys)
