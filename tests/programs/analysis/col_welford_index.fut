-- Each column's mean and variance by Welford's update with the loop's index
-- as the count (`d / f64(i + 1)`): the kernel stage carries the count, so
-- the loop is Welford's reduction, split among each column's threads and
-- combined by Chan's formula.
-- rows: 1
-- columns: yes
-- reduction: 10:23 split Welford's count,mean,M2
fun ([f64, m], [f64, m]) main([[f64, m], n] X) =
  map(fn (f64, f64) (int j) =>
        let (mu, q) = loop (mu = 0f64, q = 0f64) = for i < n do
          let x = X[i, j] in
          let d = x - mu in
          let mu2 = mu + d / f64(i + 1) in
          (mu2, q + d * (x - mu2))
        in (mu, q)
        in (mu, q / f64(n)),
      iota(m))
