-- Welford's running (count, mean, M2) along each row, giving the row mean
-- and the sample variance (divide by count - 1).
fun ([f64, n], [f64, n]) main([[f64, m], n] data) =
  map(fn (f64, f64) ([f64, m] row) =>
        let (cnt, mean, m2) =
          streamSeq(fn (f64, f64, f64) (int base, [f64, c] xs, f64 cnt, f64 mean, f64 m2) =>
                      loop (cnt, mean, m2) = for k < c do
                        let x = xs[k] in
                        let cnt1 = cnt + 1f64 in
                        let delta = x - mean in
                        let mean1 = mean + delta / cnt1 in
                        (cnt1, mean1, m2 + delta * (x - mean1))
                      in (cnt, mean, m2),
                    row, 0f64, 0f64, 0f64)
        in (mean, m2 / (cnt - 1f64)),
      data)
