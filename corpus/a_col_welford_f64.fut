-- Column mean and (population) variance of an n x m matrix in f64, using
-- Welford's one-pass update while walking down each column by index.
fun ([f64, m], [f64, m]) main([[f64, m], n] X) =
  map(fn (f64, f64) (int j) =>
        let (mean, m2) =
          loop (mean = 0f64, m2 = 0f64) = for i < n do
            let x = X[i, j] in
            let d = x - mean in
            let mean2 = mean + d / f64(i + 1) in
            (mean2, m2 + d * (x - mean2))
          in (mean, m2)
        in (mean, m2 / f64(n)),
      iota(m))
