-- Batched bilinear form out[b] = x_b^T A y_b with one shared square matrix A.
-- Nested streams: the outer one walks x_b with chunks of rows of A, the inner
-- one dots each row with y_b.
fun [f32, nb] main([[f32, n], n] A, [[f32, n], nb] X, [[f32, n], nb] Y) =
  map(fn f32 ([f32, n] x, [f32, n] y) =>
        streamSeq(fn f32 (int i0, [f32, c] xc, [[f32, n], c] arows, f32 acc) =>
                    loop (acc) = for r < c do
                      let ay = streamSeq(fn f32 (int j0, [f32, d] ac, [f32, d] yc, f32 s) =>
                                           loop (s) = for q < d do s + ac[q] * yc[q] in s,
                                         arows[r], y, 0f32)
                      in acc + xc[r] * ay
                    in acc,
                  x, A, 0f32),
      X, Y)
