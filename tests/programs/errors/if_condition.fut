-- error: 4:35: the condition of `if` must be bool, got int
-- hint: compare it: i != 0
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x, int i) => if i then x else 0f32, zip(xs, iota(n)))
