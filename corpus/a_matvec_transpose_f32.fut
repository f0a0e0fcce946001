-- y = A^T x for a row-major A: the transpose is taken in the prelude, then each
-- column of A is dotted with x by a stream.
fun [f32, m] main([[f32, m], n] A, [f32, n] x) =
  let At = transpose(A) in
  map(fn f32 ([f32, n] col) =>
        streamSeq(fn f32 (int kk, [f32, c] a, [f32, c] xc, f32 acc) =>
                    loop (acc) = for k < c do acc + a[k] * xc[k] in acc,
                  col, x, 0f32),
      At)
