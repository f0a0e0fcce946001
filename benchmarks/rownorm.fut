-- The squared norm of each row, one row a thread, walked in a plain loop:
-- the way many kernels are first written. In place, neighbouring threads
-- read a row apart (uncoalesced), and with no streamSeq the block has no
-- chunks to stage; the launch transposes A first (a separate kernel), so
-- that the loop reads consecutive addresses along threadIdx.x.
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        loop (acc = 0f32) = for k < m do acc + r[k] * r[k] in acc
     , A)
