-- The first operand's row is picked through a permutation read from memory:
-- a 2-D block could not copy the rows of its other threads (see
-- test_rows_picked_through_data_are_not_staged_in_a_2d_block), so the best
-- block spans dimension 1, where that row is shared by the whole block.
-- block: 1
-- stream: 13:15 tiled 1-D block in a 2-D grid
-- input: 13:15 uc invariant=1 shared
-- input: 13:15 vc invariant=0 shared
fun [[f32, q], m] main([int, m] perm, [[f32, n], m] A, [[f32, n], q] Bt) =
  map(fn [f32, q] (int p) =>
        map(fn f32 ([f32, n] v) =>
              let u = A[p] in
              streamSeq(fn f32 (int kk, [f32, c] uc, [f32, c] vc, f32 acc) =>
                          loop (acc) = for k < c do acc + uc[k] * vc[k] in acc
                       , u, v, 0f32)
           , Bt)
     , perm)
