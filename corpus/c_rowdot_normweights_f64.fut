-- Weighted row average with a shared weight vector normalised to sum 1:
-- out[i] = sum_j X[i, j] * w[j] / sum(w). wsum(w) is the same for every row
-- but sits inside each row's body.
fun f64 wsum([f64, L] v) =
  loop (s = 0f64) = for t < L do s + v[t] in s

fun [f64, n] main([[f64, m], n] X, [f64, m] w) =
  map(fn f64 ([f64, m] xrow) =>
        let total = wsum(w) in
        streamSeq(fn f64 (int k0, [f64, cc] xs, [f64, cc] ws, f64 acc) =>
                    loop (acc) = for t < cc do acc + xs[t] * (ws[t] / total) in acc,
                  xrow, w, 0f64),
      X)
