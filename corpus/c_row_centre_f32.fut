-- Row centring: subtract from each element the mean of its row. Each element
-- loops over its whole row to get that mean.
fun [[f32, m], n] main([[f32, m], n] A) =
  map(fn [f32, m] (int i) =>
        map(fn f32 (int j) =>
              let total = loop (t = 0f32) = for k < m do t + A[i, k] in t in
              A[i, j] - total / f32(m),
            iota(m)),
      iota(n))
