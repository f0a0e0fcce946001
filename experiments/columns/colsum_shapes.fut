-- Column sums at shapes that decide the side-by-side plan's thresholds:
-- few long columns, fewer blocks of 32 columns than SMs, many short ones.
fun [f32, m] main([[f32, m], n] X) =
  map(fn f32 (int j) =>
        loop (s = 0f32) = for i < n do s + X[i, j] in s,
      iota(m))
