-- Matrix-vector product y = A x: each thread walks its own row of A, so in
-- place neighbouring threads read a row apart (uncoalesced). The block
-- copies its threads' rows into shared memory along the rows (coalesced);
-- x is shared by every thread of the block.
fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] a) =>
        streamSeq(fn f32 (int kk, [f32, c] ac, [f32, c] xc, f32 acc) =>
                    loop (acc) = for k < c do acc + ac[k] * xc[k] in acc
                 , a, x, 0f32)
     , A)
