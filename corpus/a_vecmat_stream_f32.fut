-- z = x^T A (vector-matrix product): one point per column j; the stream walks
-- x and the rows of A together, chunk by chunk.
fun [f32, m] main([f32, n] x, [[f32, m], n] A) =
  map(fn f32 (int j) =>
        streamSeq(fn f32 (int kk, [f32, c] xc, [[f32, m], c] rows, f32 acc) =>
                    loop (acc) = for k < c do acc + xc[k] * rows[k, j] in acc,
                  x, A, 0f32),
      iota(m))
