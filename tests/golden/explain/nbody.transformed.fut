-- step 1 of 3, block tiling: the tiles a block shares in fast memory, one point a thread
fun [f32, n] main(f32 eps, [f32, n] bodies) =
  -- 1-D block of 256 threads: dimension 0 -> threadIdx.x
  -- register tile: 4 points a thread, a block covers 1024 (steps 2 and 3)
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

-- step 2 of 3, strip-mining dimension 0 by T0 = 4: each such map becomes a streamPar over strips
-- of T points, each strip a map, and the tiled streamSeq a loop over its chunks
fun [f32, n] main(f32 eps, [f32, n] bodies) =
  streamPar(
    fn [f32, T0] (int s0, [f32, T0] body_strip) =>
      map(
        fn f32 (f32 body) =>
          loop (acc = 0.0f32) = for kk < n step 256 do
            let chunk = min(256, n - kk) in
            let bodies_chunk = bodies[kk : kk + chunk] in
            let shMem_bodies_chunk = copyFastMem(bodies_chunk[threadIdx.x], threadIdx.x) in
            loop (acc) = for k < chunk do
              acc + (shMem_bodies_chunk[k] - body)
            in acc
          in acc,
        body_strip),
    bodies)

-- step 3 of 3, sequentialising: the strip's map distributed around the loop over chunks,
-- interchanged inward through it and the loop over k, and made loops over the thread's T0 points,
-- their accumulators in registers; per k, bodies_chunk[k] is read once for the T0 points of
-- dimension 0
fun [f32, n] main(f32 eps, [f32, n] bodies) =
  streamPar(
    fn [f32, T0] (int s0, [f32, T0] body_strip) =>
      loop (acc = replicate(T0, 0.0f32)) = for kk < n step 256 do
        let chunk = min(256, n - kk) in
        let bodies_chunk = bodies[kk : kk + chunk] in
        let shMem_bodies_chunk = copyFastMem(bodies_chunk[threadIdx.x], threadIdx.x) in
        loop (acc) = for k < chunk do
          let reg_bodies_chunk = shMem_bodies_chunk[k] in
          loop (acc) = for t0 < T0 do
            acc with [t0] = acc[t0] + (reg_bodies_chunk - body_strip[t0])
          in acc
        in acc
      in acc,
    bodies)
