-- error: 3:26: `x` is bound twice here
fun [f32, n] main([f32, n] xs, [f32, n] ys) =
  map(fn f32 (f32 x, f32 x) => x * 2f32, zip(xs, ys))
