-- step 1 of 3, block tiling: the tiles a block shares in fast memory, one point a thread
fun [[f32, m], n] main([[f32, m], n] AA, [[int, p], n] inds_nhbs) =
  -- 1-D block of 256 threads: dimension 1 -> threadIdx.x
  -- register tile: 4 points a thread, a block covers 1024 (steps 2 and 3)
  map(
    fn [f32, m] ([f32, m] A, int i) =>
      map(
        fn f32 (f32 a) =>
          streamSeq(
            fn f32 (int kk1, [int, chunk1] nhbs, f32 acc1) =>
              loop (acc1) = for k1 < chunk1 do
                let ind = inds_nhbs[i, nhbs[k1]] in
                let invar_AArow = AA[ind] in
                -- fast memory: shMem_invar_AArow_chunk[512]
                -- chunk = 512 (the last chunk may be shorter); copies guard the array's end
                -- rows joined with the loop at 11:27: one stream over the rows of all its iterations, laid end to end; a chunk may hold the end of one row and the start of the next
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

-- step 2 of 3, strip-mining dimension 1 by T1 = 4: each such map becomes a streamPar over strips
-- of T points, each strip a map, and the tiled streamSeq a loop over its chunks
fun [[f32, m], n] main([[f32, m], n] AA, [[int, p], n] inds_nhbs) =
  map(
    fn [f32, m] ([f32, m] A, int i) =>
      streamPar(
        fn [f32, T1] (int s1, [f32, T1] a_strip) =>
          map(
            fn f32 (f32 a) =>
              streamSeq(
                fn f32 (int kk1, [int, chunk1] nhbs, f32 acc1) =>
                  loop (acc1) = for k1 < chunk1 do
                    let ind = inds_nhbs[i, nhbs[k1]] in
                    let invar_AArow = AA[ind] in
                    -- drawn a row at a time: the kernel's chunks run over the rows of every iteration of the loop around, laid end to end
                    loop (acc2 = acc1) = for kk2 < m step 512 do
                      let chunk2 = min(512, m - kk2) in
                      let invar_AArow_chunk = invar_AArow[kk2 : kk2 + chunk2] in
                      let shMem_invar_AArow_chunk = copyFastMem(invar_AArow_chunk[threadIdx.x], threadIdx.x) in
                      loop (acc2) = for k2 < chunk2 do
                        acc2 + shMem_invar_AArow_chunk[k2] * 2.0f32
                      in acc2
                    in acc2
                  in acc1,
                iota(p), 0.0f32),
            a_strip),
        A),
    zip(AA, iota(n)))

-- step 3 of 3, sequentialising: the strip's map distributed around the loop over chunks,
-- interchanged inward through it and the loop over k, and made loops over the thread's T1 points,
-- their accumulators in registers; per k, invar_AArow_chunk[k] is read once for the T1 points of
-- dimension 1
fun [[f32, m], n] main([[f32, m], n] AA, [[int, p], n] inds_nhbs) =
  map(
    fn [f32, m] ([f32, m] A, int i) =>
      streamPar(
        fn [f32, T1] (int s1, [f32, T1] a_strip) =>
          streamSeq(
            fn [f32, T1] (int kk1, [int, chunk1] nhbs, [f32, T1] acc1) =>
              loop (acc1) = for k1 < chunk1 do
                let ind = inds_nhbs[i, nhbs[k1]] in
                let invar_AArow = AA[ind] in
                -- drawn a row at a time: the kernel's chunks run over the rows of every iteration of the loop around, laid end to end
                loop (acc2 = acc1) = for kk2 < m step 512 do
                  let chunk2 = min(512, m - kk2) in
                  let invar_AArow_chunk = invar_AArow[kk2 : kk2 + chunk2] in
                  let shMem_invar_AArow_chunk = copyFastMem(invar_AArow_chunk[threadIdx.x], threadIdx.x) in
                  loop (acc2) = for k2 < chunk2 do
                    let reg_invar_AArow_chunk = shMem_invar_AArow_chunk[k2] in
                    loop (acc2) = for t1 < T1 do
                      acc2 with [t1] = acc2[t1] + reg_invar_AArow_chunk * 2.0f32
                    in acc2
                  in acc2
                in acc2
              in acc1,
            iota(p), replicate(T1, 0.0f32)),
        A),
    zip(AA, iota(n)))
