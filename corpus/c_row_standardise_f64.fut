-- Standardise every row: (x - mean) / std with the population standard
-- deviation. Two streams in the element's body: the mean, then the sum of
-- squared deviations from it.
fun f64 mean_of([f64, len] v) =
  streamSeq(fn f64 (int off, [f64, q] vc, f64 acc) =>
              loop (acc) = for t < q do acc + vc[t] in acc,
            v, 0f64) / f64(len)

fun f64 sq_dev([f64, len] v, f64 mu) =
  streamSeq(fn f64 (int off, [f64, q] vc, f64 acc) =>
              loop (acc) = for t < q do
                let d = vc[t] - mu in acc + d * d
              in acc,
            v, 0f64)

fun [[f64, m], n] main([[f64, m], n] X) =
  map(fn [f64, m] ([f64, m] xrow) =>
        map(fn f64 (f64 x) =>
              let mu = mean_of(xrow) in
              let sd = sqrt(sq_dev(xrow, mu) / f64(m)) in
              (x - mu) / sd,
            xrow),
      X)
