-- Cross-product matrix G = A^T B of two tall N x 64 blocks, f64. Both are
-- transposed in the prelude so each result element streams a column of A
-- against a column of B.
fun [[f64, kb], ka] main([[f64, ka], N] A, [[f64, kb], N] B) =
  let At = transpose(A) in
  let Bt = transpose(B) in
  map(fn [f64, kb] ([f64, N] acol) =>
        map(fn f64 ([f64, N] bcol) =>
              streamSeq(fn f64 (int r0, [f64, rc] ac, [f64, rc] bc, f64 dot) =>
                          loop (dot) = for r < rc do dot + ac[r] * bc[r] in dot,
                        acol, bcol, 0f64),
            Bt),
      At)
