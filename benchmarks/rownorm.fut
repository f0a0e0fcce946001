-- The squared norm of each row, walked in a plain loop: the way many
-- kernels are first written. The loop is a reduction, so the row's threads
-- (a warp, or a block of 256 or 1024, chosen at launch) share it as they
-- would a stream's. Rows shorter than 256 run one row a thread.
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        loop (acc = 0f32) = for k < m do acc + r[k] * r[k] in acc
     , A)
