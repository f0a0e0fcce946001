-- Column mean and sample variance by Welford's update, one point per
-- column, loop down the rows with (count, mean, M2) carried in the loop.
fun ([f32, m], [f32, m]) main([[f32, m], n] obs) =
  map(fn (f32, f32) (int col) =>
        let (k, mu, ss) =
          loop (k = 0f32, mu = 0f32, ss = 0f32) = for i < n do
            let v = obs[i, col] in
            let k2 = k + 1f32 in
            let d = v - mu in
            let mu2 = mu + d / k2 in
            (k2, mu2, ss + d * (v - mu2))
          in (k, mu, ss)
        in (mu, ss / (k - 1f32)),
      iota(m))
