-- Sparse matrix-vector product in ELLPACK form: row i has rowlen[i] entries
-- (at most maxd) in cols/vals; x is gathered through the column indices. f64.
fun [f64, n] main([[int, maxd], n] cols, [[f64, maxd], n] vals, [int, n] rowlen, [f64, m] x) =
  map(fn f64 (int i) =>
        loop (acc = 0f64) = for k < rowlen[i] do acc + vals[i, k] * x[cols[i, k]]
        in acc
     , iota(n))
