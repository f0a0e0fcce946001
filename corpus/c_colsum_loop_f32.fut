-- Column sums of an n x m matrix: one point per column, walking down the
-- rows by index.
fun [f32, m] main([[f32, m], n] X) =
  map(fn f32 (int j) =>
        loop (s = 0f32) = for i < n do s + X[i, j] in s,
      iota(m))
