fun [[f32, m], n] main([[f32, m], n] AA, [[int, p], n] inds_nhbs) =
  -- 1-D block of 256 threads: dimension 1 -> threadIdx.x
  -- register tile (4 points a thread), in three steps:
  --   1. strip-mine dimension 1 by T1 = 4: each thread takes a strip of 4 points (a block covers 1024)
  --   2. interchange the strip inward, through the streamSeq and its loop over k
  --   3. sequentialise it: per k, read invar_AArow_chunk[k] once for the T1 points of dimension 1 into registers; 4 accumulators, one a point
  map(
    fn [f32, m] ([f32, m] A, int i) =>
      map(
        fn f32 (f32 a) =>
          streamSeq(
            fn f32 (int kk1, [int, chunk1] nhbs, f32 acc1) =>
              loop (acc1) = for k1 < chunk1 do
                let ind = inds_nhbs[i, nhbs[k1]] in
                let invar_AArow = AA[ind] in
                -- fast memory: shMem_invar_AArow_chunk[256]
                -- chunk = 256 (the last chunk may be shorter); copies guard the array's end
                streamSeq(
                  fn f32 (int kk2, [f32, chunk2] invar_AArow_chunk, f32 acc2) =>
                    let shMem_invar_AArow_chunk = copyFastMem(invar_AArow_chunk[threadIdx.x], threadIdx.x) in
                    loop (acc2) = for k2 < chunk2 do
                      acc2 + shMem_invar_AArow_chunk[k2] * 2.0f32
                    in acc2,
                  invar_AArow, acc1)
              in acc1,
            iota(p), 0.0f32),
        A),
    zip(AA, iota(n)))
