-- step 1 of 3, block tiling: the tiles a block shares in fast memory, one point a thread
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  -- 2-D block of 16 x 16 threads: dimension 1 -> threadIdx.x, dimension 0 -> threadIdx.y
  -- tid = threadIdx.y * 16 + threadIdx.x
  -- register tile: 64 points a thread, a block covers 128 x 128 (steps 2 and 3)
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

-- step 2 of 3, strip-mining dimension 0 by T0 = 8 and dimension 1 by T1 = 8: each such map becomes
-- a streamPar over strips of T points, each strip a map, and the tiled streamSeq a loop over its
-- chunks
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  streamPar(
    fn [[f32, q], T0] (int s0, [[f32, n], T0] a_strip) =>
      map(
        fn [f32, q] ([f32, n] a) =>
          streamPar(
            fn [f32, T1] (int s1, [[f32, n], T1] b_strip) =>
              map(
                fn f32 ([f32, n] b) =>
                  loop (acc = 0.0f32) = for kk < n step 16 do
                    let chunk = min(16, n - kk) in
                    let a_c = a[kk : kk + chunk] in
                    let b_c = b[kk : kk + chunk] in
                    let shMem_a_c = copyFastMem(a_c[threadIdx.x], threadIdx.x, threadIdx.y) in
                    let shMem_b_c = copyFastMem(b_c[threadIdx.y], threadIdx.y, threadIdx.x) in
                    loop (acc) = for k < chunk do
                      acc + shMem_a_c[k, threadIdx.y] * shMem_b_c[k, threadIdx.x]
                    in acc
                  in acc,
                b_strip),
            B),
        a_strip),
    A)

-- step 3 of 3, sequentialising: the strip's map distributed around the loop over chunks,
-- interchanged inward through it and the loop over k, and made loops over the thread's T0 x T1
-- points, their accumulators in registers; per k, a_c[k] is read once for the T1 points of
-- dimension 1; b_c[k] is read once for the T0 points of dimension 0
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  streamPar(
    fn [[f32, q], T0] (int s0, [[f32, n], T0] a_strip) =>
      streamPar(
        fn [f32, T1] (int s1, [[f32, n], T1] b_strip) =>
          loop (acc = replicate(T0, replicate(T1, 0.0f32))) = for kk < n step 16 do
            let chunk = min(16, n - kk) in
            let a_c = a_strip[:, kk : kk + chunk] in
            let b_c = b_strip[:, kk : kk + chunk] in
            let shMem_a_c = copyFastMem(a_c[:, threadIdx.x], threadIdx.x, threadIdx.y) in
            let shMem_b_c = copyFastMem(b_c[:, threadIdx.y], threadIdx.y, threadIdx.x) in
            loop (acc) = for k < chunk do
              let reg_a_c = map(
                  fn f32 (int t0) =>
                    shMem_a_c[k, t0 / 4 * 64 + threadIdx.y * 4 + t0 % 4],
                  iota(T0)) in
              let reg_b_c = map(
                  fn f32 (int t1) =>
                    shMem_b_c[k, t1 / 4 * 64 + threadIdx.x * 4 + t1 % 4],
                  iota(T1)) in
              loop (acc) = for t0 < T0 do
                loop (acc) = for t1 < T1 do
                  acc with [t0, t1] = acc[t0, t1] + reg_a_c[t0] * reg_b_c[t1]
                in acc
              in acc
            in acc
          in acc,
        B),
    A)
