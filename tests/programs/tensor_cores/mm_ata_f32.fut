-- The Gram matrix of X's columns, Xᵀ X, in f32: both operands are columns
-- of the one array, each tile read with the output's positions adjacent.
fun [[f32, n], n] main([[f32, n], k] X) =
  let A = transpose(X) in
  map(fn [f32, n] ([f32, k] a) =>
        map(fn f32 ([f32, k] b) =>
              streamSeq(fn f32 (int kk, [f32, c] ac, [f32, c] bc, f32 acc) =>
                          loop (acc) = for j < c do acc + ac[j] * bc[j] in acc
                       , a, b, 0f32)
           , A)
     , A)
