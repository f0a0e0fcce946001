-- Row sums: each step of a row's loop reads the element after the last
-- one, so a row's threads stay along a warp (no rows side by side).
-- rows: 1
-- columns: no
-- reduction: 8:9 split +
fun [f32, n] main([[f32, m], n] X) =
  map(fn f32 (int i) =>
        loop (s = 0f32) = for j < m do s + X[i, j] in s,
      iota(n))
