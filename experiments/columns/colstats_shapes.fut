-- Column means and ranges in f64, two reductions down each column.
fun ([f64, m], [f64, m]) main([[f64, m], n] X) =
  map(fn (f64, f64) (int j) =>
        let s = loop (s = 0f64) = for i < n do s + X[i, j] in s in
        let hi = loop (hi = X[0, j]) = for i < n do max(hi, X[i, j]) in hi in
        (s / f64(n), hi - s / f64(n)),
      iota(m))
