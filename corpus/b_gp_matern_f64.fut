-- Matern-5/2 kernel regression in d dimensions, f64: for each test row of T
-- (m x d) sum w_j k(|t - x_j|) over the training rows of X (n x d), streamed
-- as chunks of rows; an inner loop runs over the d features.
fun f64 matern52(f64 r, f64 ell) =
  let s = 2.23606797749979f64 * r / ell in
  (1f64 + s + s * s / 3f64) * exp(-s)

fun [f64, m] main(f64 ell, [[f64, d], m] T, [[f64, d], n] X, [f64, n] w) =
  map(fn f64 (int i) =>
        streamSeq(fn f64 (int j0, [[f64, d], c] Xc, [f64, c] wc, f64 acc) =>
                    loop (acc) = for j < c do
                      let r2 = loop (r2 = 0f64) = for f < d do
                                 let u = T[i, f] - Xc[j, f] in r2 + u * u
                               in r2
                      in acc + wc[j] * matern52(sqrt(r2), ell)
                    in acc
                 , X, w, 0f64)
     , iota(m))
