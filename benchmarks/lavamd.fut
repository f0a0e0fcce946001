-- lavaMD, program (B) of the design note, corrected: the outer stream goes
-- over the neighbour positions `iota(p)` (the note streamed over
-- `iota(inds_nhbs)`, an array, and rebound `inds_nhbs` as a 1-D chunk it
-- then indexed with two indices), and the inner chunk holds f32, not int.
-- `invar_AArow` is picked by an indirect index deep in the body and is
-- invariant to the second map: a 1-D block in a 2-D grid.
fun [[f32, m], n] main([[f32, m], n] AA, [[int, p], n] inds_nhbs) =
  map(fn [f32, m] ([f32, m] A, int i) =>
        map(fn f32 (f32 a) =>
              streamSeq(fn f32 (int kk1, [int, chunk1] nhbs, f32 acc1) =>
                          loop (acc1) = for k1 < chunk1 do
                            let ind = inds_nhbs[i, nhbs[k1]] in
                            let invar_AArow = AA[ind] in
                            streamSeq(fn f32 (int kk2, [f32, chunk2] invar_AArow_chunk, f32 acc2) =>
                                        loop (acc2) = for k2 < chunk2 do
                                          acc2 + invar_AArow_chunk[k2] * 2.0f32
                                        in acc2
                                     , invar_AArow, acc1)
                          in acc1
                       , iota(p), 0f32)
           , A)
     , zip(AA, iota(n)))
