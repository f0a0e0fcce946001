-- Column means and column sums of squares in one pass: transpose the
-- matrix in the prelude, then stream each transposed row (a column of X)
-- with a pair accumulator.
fun ([f64, m], [f64, m]) main([[f64, m], n] X) =
  let XT = transpose(X) in
  let inv_n = 1f64 / f64(n) in
  map(fn (f64, f64) ([f64, n] col) =>
        let (s, sq) =
          streamSeq(fn (f64, f64) (int r0, [f64, rc] cv, f64 s, f64 sq) =>
                      loop (s, sq) = for r < rc do (s + cv[r], sq + cv[r] * cv[r])
                      in (s, sq),
                    col, 0f64, 0f64)
        in (s * inv_n, sq),
      XT)
