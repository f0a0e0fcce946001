-- Batched matrix product C[b] = A[b] B[b]: a 3-D map over (batch, row, column)
-- with a loop over the shared inner dimension.
fun [[[f32, m], n], nb] main([[[f32, p], n], nb] A, [[[f32, m], p], nb] B) =
  map(fn [[f32, m], n] ([[f32, p], n] a, [[f32, m], p] b) =>
        map(fn [f32, m] ([f32, p] arow) =>
              map(fn f32 (int j) =>
                    loop (acc = 0f32) = for k < p do acc + arow[k] * b[k, j] in acc,
                  iota(m)),
            a),
      A, B)
