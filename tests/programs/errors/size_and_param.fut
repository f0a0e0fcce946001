-- error: 2:36: `n` names both a size and a parameter
fun [f32, n] main([f32, n] xs, f32 n) =
  map(fn f32 (f32 x) => x, xs)
