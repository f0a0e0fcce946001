fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  -- 2-D block of 32 x 32 threads: dimension 1 -> threadIdx.x, dimension 0 -> threadIdx.y
  -- tid = threadIdx.y * 32 + threadIdx.x
  map(
    fn [f32, q] ([f32, n] a) =>
      map(
        fn f32 ([f32, n] b) =>
          -- fast memory: shMem_a_c[32][32] (row-major)
          -- fast memory: shMem_b_c[32][32] (transposed)
          -- chunk = 32 (the last chunk may be shorter); copies guard the array's end
          streamSeq(
            fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc) =>
              let shMem_a_c = copyFastMem(a_c[threadIdx.x], threadIdx.y, threadIdx.x) in
              let shMem_b_c = copyFastMem(b_c[threadIdx.y], threadIdx.y, threadIdx.x) in
              loop (acc) = for k < chunk do
                acc + shMem_a_c[threadIdx.y, k] * shMem_b_c[k, threadIdx.x]
              in acc,
            a, b, 0.0f32),
        B),
    A)
