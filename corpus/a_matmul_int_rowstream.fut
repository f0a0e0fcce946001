-- Integer matrix product with 64-bit accumulation, C = A B for int matrices:
-- point (i, j) streams row i of A together with chunks of rows of B.
fun [[i64, m], n] main([[int, p], n] A, [[int, m], p] B) =
  map(fn [i64, m] ([int, p] a) =>
        map(fn i64 (int j) =>
              streamSeq(fn i64 (int k0, [int, c] ac, [[int, m], c] bc, i64 acc) =>
                          loop (acc) = for k < c do acc + i64(ac[k] * bc[k, j]) in acc,
                        a, B, 0i64),
            iota(m)),
      A)
