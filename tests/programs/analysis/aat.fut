-- C = A A^T: both operands are rows of the same matrix; one varies with
-- dimension 0, the other with dimension 1. A 2-D block stages both. The
-- row of the second is read one row per thread along x: a transposed tile.
-- block: 1,0
-- stream: 12:15 tiled 2-D
-- input: 12:15 uc invariant=1 shared
-- input: 12:15 vc invariant=0 shared
-- reason: 12:15 vc invariant to dimension 0, which the block spans
fun [[f32, n], n] main([[f32, m], n] A) =
  map(fn [f32, n] ([f32, m] u) =>
        map(fn f32 ([f32, m] v) =>
              streamSeq(fn f32 (int kk, [f32, c] uc, [f32, c] vc, f32 acc) =>
                          loop (acc) = for k < c do acc + uc[k] * vc[k] in acc
                       , u, v, 0f32)
           , A)
     , A)
