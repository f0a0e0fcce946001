-- error: 4:30: `sqrt` needs a float, got int
-- hint: convert it: sqrt(f32(i))
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (int i) => sqrt(i), iota(n))
