-- error: 4:32: an index must be an int, got f16
-- hint: convert it: int(x)
fun [f16, n] main([f16, n] xs, [f16, m] ys) =
  map(fn f16 (f16 x) => x + ys[x], xs)
