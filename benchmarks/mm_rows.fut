-- Matrix product C = A B with B as given: no transpose in the prelude. Each
-- output (i, j) streams row i of A and reads column j of B by indexing,
-- B[kk + k, j]: consecutive threads along dimension 1 read consecutive
-- elements of a row of B, and the value is the same for every i. The read
-- walks the stream's position, so tiler makes it a stream input (a row of
-- B's transpose) and tiles this kernel as it tiles mm.
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B) =
  map(fn [f32, q] ([f32, n] a) =>
        map(fn f32 (int j) =>
              streamSeq(fn f32 (int kk, [f32, chunk] a_c, f32 acc) =>
                          loop (acc) = for k < chunk do
                            acc + a_c[k] * B[kk + k, j]
                          in acc
                       , a, 0f32)
           , iota(q))
     , A)
