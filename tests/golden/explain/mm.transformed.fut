fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  -- 2-D block of 16 x 16 threads: dimension 1 -> threadIdx.x, dimension 0 -> threadIdx.y
  -- tid = threadIdx.y * 16 + threadIdx.x
  -- register tile (64 points a thread), in three steps:
  --   1. strip-mine dimension 1 by T1 = 8 and dimension 0 by T0 = 8: each thread takes a strip of 8 x 8 points (a block covers 128 x 128)
  --   2. interchange the strip inward, through the streamSeq and its loop over k
  --   3. sequentialise it: per k, read a_c[k] once for the T1 points of dimension 1; b_c[k] once for the T0 points of dimension 0 into registers; 64 accumulators, one a point
  map(
    fn [f32, q] ([f32, n] a) =>
      map(
        fn f32 ([f32, n] b) =>
          -- fast memory: shMem_a_c[16][132] (transposed, padded)
          -- fast memory: shMem_b_c[16][128] (transposed)
          -- chunk = 16 (the last chunk may be shorter); copies guard the array's end
          streamSeq(
            fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc) =>
              let shMem_a_c = copyFastMem(a_c[threadIdx.x], threadIdx.x, threadIdx.y) in
              let shMem_b_c = copyFastMem(b_c[threadIdx.y], threadIdx.y, threadIdx.x) in
              loop (acc) = for k < chunk do
                acc + shMem_a_c[k, threadIdx.y] * shMem_b_c[k, threadIdx.x]
              in acc,
            a, b, 0.0f32),
        B),
    A)
