fun [f32, n] main(f32 eps, [f32, n] bodies) =
  -- 1-D block of 256 threads: dimension 0 -> threadIdx.x
  -- register tile (4 points a thread), in three steps:
  --   1. strip-mine dimension 0 by T0 = 4: each thread takes a strip of 4 points (a block covers 1024)
  --   2. interchange the strip inward, through the streamSeq and its loop over k
  --   3. sequentialise it: per k, read bodies_chunk[k] once for the T0 points of dimension 0 into registers; 4 accumulators, one a point
  map(
    fn f32 (f32 body) =>
      -- fast memory: shMem_bodies_chunk[256]
      -- chunk = 256 (the last chunk may be shorter); copies guard the array's end
      streamSeq(
        fn f32 (int kk, [f32, chunk] bodies_chunk, f32 acc) =>
          let shMem_bodies_chunk = copyFastMem(bodies_chunk[threadIdx.x], threadIdx.x) in
          loop (acc) = for k < chunk do
            acc + (shMem_bodies_chunk[k] - body)
          in acc,
        bodies, 0.0f32),
    bodies)
