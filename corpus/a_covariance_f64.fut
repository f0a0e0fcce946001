-- Sample covariance of the m columns of an n x m data matrix, given the column
-- means: cov[a, b] = sum_i (X[i,a] - mu[a]) (X[i,b] - mu[b]) / (n - 1).
-- Columns are obtained with a transpose in the prelude.
fun [[f64, m], m] main([[f64, m], n] X, [f64, m] mu) =
  let Xt = transpose(X) in
  let scale = 1f64 / f64(n - 1) in
  map(fn [f64, m] ([f64, n] ca, f64 ma) =>
        map(fn f64 ([f64, n] cb, f64 mb) =>
              scale * streamSeq(fn f64 (int kk, [f64, c] xa, [f64, c] xb, f64 acc) =>
                                  loop (acc) = for t < c do acc + (xa[t] - ma) * (xb[t] - mb) in acc,
                                ca, cb, 0f64),
            Xt, mu),
      Xt, mu)
