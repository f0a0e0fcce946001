-- The sum of each row of a batch of matrices (b x n rows of m), one row a
-- warp or a block: few long rows leave most SMs idle with one thread a row.
-- At 4 x 32768 x 32768 the input has 2^32 elements, so the launch runs the
-- version with 64-bit offsets.
fun [[f32, n], b] main([[[f32, m], n], b] X) =
  map(fn [f32, n] ([[f32, m], n] mat) =>
        map(fn f32 ([f32, m] row) =>
              loop (acc = 0f32) = for k < m do acc + row[k] in acc
           , mat)
     , X)
