-- A row's running mean and M2 with the index as the count, the element a
-- product of two rows; and a second loop that weights each element by its
-- index, which is not a count: it stays as written, one thread a row.
-- rows: 1
-- reduction: 8:23 split Welford's count,mean,M2
fun ([f32, n], [f32, n]) main([[f32, m], n] A, [[f32, m], n] B) =
  map(fn (f32, f32) ([f32, m] a, [f32, m] b) =>
        let (mu, q) = loop (mu = 0f32, q = 0f32) = for i < m do
          let x = a[i] * b[i] in
          let d = x - mu in
          let mu2 = mu + d / f32(i + 1) in
          (mu2, q + d * (x - mu2))
        in (mu, q)
        in let w = loop (w = 0f32) = for i < m do w * 0.5f32 + a[i] * f32(i) in w
        in (mu, q + w),
      A, B)
