-- Each column's mean and sample variance by Welford's update, a map over
-- columns with the count, mean and M2 carried down the rows: recognised by
-- what the loop computes, split among each column's threads (32 columns
-- side by side a block) and combined by Chan's formula.
-- rows: 1
-- columns: yes
-- reduction: 10:26 split Welford's count,mean,M2
fun ([f32, m], [f32, m]) main([[f32, m], n] X) =
  map(fn (f32, f32) (int j) =>
        let (k, mu, q) = loop (k = 0f32, mu = 0f32, q = 0f32) = for i < n do
          let x = X[i, j] in
          let k2 = k + 1f32 in
          let d = x - mu in
          let mu2 = mu + d / k2 in
          (k2, mu2, q + d * (x - mu2))
        in (k, mu, q)
        in (mu, q / (k - 1f32)),
      iota(m))
