-- C = A Aᵀ (a Gram matrix, SYRK without the symmetry): both operands are
-- rows of the same matrix, one picked by each map. The row for dimension 0
-- is invariant to dimension 1 and the other way round, so a 2-D block
-- stages both, and a register tile reuses each row's value across a strip.
fun [[f32, n], n] main([[f32, d], n] A) =
  map(fn [f32, n] ([f32, d] u) =>
        map(fn f32 ([f32, d] v) =>
              streamSeq(fn f32 (int kk, [f32, c] uc, [f32, c] vc, f32 acc) =>
                          loop (acc) = for k < c do acc + uc[k] * vc[k] in acc
                       , u, v, 0f32)
           , A)
     , A)
