-- Running maximum of each sensor (column) over time (rows) and each reading as a fraction of it, a plain loop over all rows reading X[j][k] with the test in the other branch (j > i keeps the maximum), f64.
fun ([[f64, m], n], [[f64, m], n]) main([[f64, m], n] X) =
  map(fn ([f64, m], [f64, m]) (int i) =>
        map(fn (f64, f64) (int k) =>
              let peak = loop (mx = -1e300f64) = for j < n do
                           if j > i then mx else max(mx, X[j][k])
                         in mx
              in (peak, X[i][k] / peak),
            iota(m)),
      iota(n))
