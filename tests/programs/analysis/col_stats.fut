-- Each column's mean and maximum, a map over columns with two loops down
-- the rows: consecutive columns' elements lie next to each other, so a
-- block holds 32 columns side by side, each column's threads down the
-- block, and a warp's reads of one step are one run of memory.
-- rows: 1
-- columns: yes
-- reduction: 11:17 split +
-- reduction: 12:18 split max
fun ([f32, m], [f32, m]) main([[f32, m], n] X) =
  map(fn (f32, f32) (int j) =>
        let s = loop (s = 0f32) = for i < n do s + X[i, j] in s in
        let hi = loop (hi = X[0, j]) = for i < n do max(hi, X[i, j]) in hi in
        (s / f32(n), hi - s / f32(n)),
      iota(m))
