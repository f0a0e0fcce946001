-- C = A B: point (i, j) streams row i of A and reads column j of B by index.
fun [[f32, m], n] main([[f32, p], n] A, [[f32, m], p] B) =
  map(fn [f32, m] ([f32, p] arow) =>
        map(fn f32 (int j) =>
              streamSeq(fn f32 (int kk, [f32, c] a, f32 acc) =>
                          loop (acc) = for q < c do acc + a[q] * B[kk + q, j] in acc,
                        arow, 0f32),
            iota(m)),
      A)
