-- Residual r = b - A x: each row starts from b[i] and subtracts the terms
-- A[i, k] * x[k] one by one (an accumulator that only decreases by products).
fun [f32, n] main([[f32, m], n] A, [f32, m] x, [f32, n] b) =
  map(fn f32 (int i) =>
        loop (res = b[i]) = for k < m do res - A[i, k] * x[k] in res,
      iota(n))
