-- Sliding-window statistics: for each start i < n, mean, standard deviation
-- and maximum of x[i .. i+w). The signal has n + w samples. f64.
fun ([f64, n], [f64, n], [f64, n]) main(int n, int w, [f64, len] x) =
  map(fn (f64, f64, f64) (int i) =>
        let (s, s2, mx) = loop (s = 0f64, s2 = 0f64, mx = x[i]) = for k < w do
                            let v = x[i + k] in
                            (s + v, s2 + v * v, max(mx, v))
                          in (s, s2, mx)
        in
        let mean = s / f64(w) in
        (mean, sqrt(max(s2 / f64(w) - mean * mean, 0f64)), mx)
     , iota(n))
