-- y = A^T x in double precision, written with column indexing A[i, j] and a loop.
fun [f64, m] main([[f64, m], n] A, [f64, n] x) =
  map(fn f64 (int j) =>
        loop (s = 0f64) = for i < n do s + A[i, j] * x[i]
        in s,
      iota(m))
