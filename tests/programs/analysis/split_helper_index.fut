-- A row's sum whose step divides, so its lanes load the row's elements
-- ahead of the division's branch, and reads a vector at an index a helper
-- computes from an index array: that read is left to its own iteration (the
-- helper's lets would escape the iteration's bounds test).
-- rows: 1
-- reduction: 10:9 split +
fun int pick(int a, int m) = let b = a % m in if b < 0 then b + m else b
fun [f32, n] main([[f32, m], n] A, [f32, k] w, [int, m] at) =
  map(fn f32 ([f32, m] row) =>
        loop (s = 0f32) = for j < m do s + row[j] / (w[pick(at[j], k)] + 1f32) in s,
      A)
