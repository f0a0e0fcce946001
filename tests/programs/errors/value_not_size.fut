-- error: 3:15: `k` is the parameter `k` (i64, bound at 2:36), not a size
fun [f32, n] main([f32, n] xs, i64 k) =
  map(fn f32 ([f32, k] x) => 0f32, xs)
