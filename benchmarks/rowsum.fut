-- The sum of each row of a matrix, a pure stream of memory. The row's
-- threads (a warp, or a block of 256 or 1024, chosen at launch) share the
-- sum: each adds every T-th element, and the shares are combined. Rows
-- shorter than 256 run one row a thread, the block copying its threads'
-- rows into shared memory along the rows (in place, neighbouring threads
-- would read a row apart: uncoalesced).
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                    loop (acc) = for k < c do acc + rc[k] in acc
                 , r, 0f32)
     , A)
