-- The sum of each row of a matrix: one row a thread, a pure stream of
-- memory. In place neighbouring threads read a row apart (uncoalesced); the
-- block copies its threads' rows into shared memory along the rows.
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                    loop (acc) = for k < c do acc + rc[k] in acc
                 , r, 0f32)
     , A)
