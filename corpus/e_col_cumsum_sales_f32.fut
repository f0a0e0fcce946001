-- Cumulative sales of each product (column) over the days (rows) and each day's sales minus the product's running mean, a plain loop over all days reading X[j, k] where j <= i, f32.
fun ([[f32, m], n], [[f32, m], n]) main([[f32, m], n] X) =
  map(fn ([f32, m], [f32, m]) (int i) =>
        map(fn (f32, f32) (int k) =>
              let total = loop (s = 0f32) = for j < n do
                            if j <= i then s + X[j, k] else s
                          in s
              in (total, X[i, k] - total / f32(i + 1)),
            iota(m)),
      iota(n))
