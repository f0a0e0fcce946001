-- A column's sum that only even columns take: rows side by side would put
-- 32 columns, some in the branch and some not, in one block meeting at a
-- barrier, so a column's threads stay along a warp (found by a review: a
-- compiler error).
-- rows: 1
-- columns: no
-- reduction: 10:28 split +
fun [f32, m] main([[f32, m], n] X) =
  map(fn f32 (int j) =>
        if j % 2 == 0 then loop (s = 0f32) = for i < n do s + X[i, j] in s else 0f32,
      iota(m))
