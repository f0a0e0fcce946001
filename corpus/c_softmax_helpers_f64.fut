-- Numerically stable row softmax in double precision. Index-based 2-D map
-- over (i, j); the row max and the shifted exp-sum are helper functions that
-- loop over row i, and they are called from each element's own body.
fun f64 rowmax([[f64, w], h] a, int i) =
  loop (mx = a[i, 0]) = for k < w do max(mx, a[i, k]) in mx

fun f64 rowexpsum([[f64, w], h] a, int i, f64 shift) =
  loop (s = 0f64) = for k < w do s + exp(a[i, k] - shift) in s

fun [[f64, cols], rows] main([[f64, cols], rows] logits) =
  map(fn [f64, cols] (int i) =>
        map(fn f64 (int j) =>
              let mx = rowmax(logits, i) in
              exp(logits[i, j] - mx) / rowexpsum(logits, i, mx),
            iota(cols)),
      iota(rows))
