-- log_softmax(z) = z - logsumexp(row), f64, indexed (i, j) nest. The
-- log-sum-exp is a helper with a plain loop carrying the running maximum
-- and the sum rescaled branch-free to each new maximum.
fun f64 online_lse([[f64, w], h] z, int r) =
  let (hi, acc) =
    loop (hi = -1.0e308f64, acc = 0f64) = for t < w do
      let e = z[r, t] in
      let nhi = max(hi, e) in
      (nhi, acc * exp(hi - nhi) + exp(e - nhi))
    in (hi, acc)
  in hi + log(acc)

fun [[f64, nc], nr] main([[f64, nc], nr] Z) =
  map(fn [f64, nc] (int r) =>
        map(fn f64 (int c) => Z[r, c] - online_lse(Z, r), iota(nc)),
      iota(nr))
