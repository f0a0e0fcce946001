-- Regression program from tiler fuzz --gpu, seed 304335 (tests/FUZZ.md). Its 64-bit-offset tiled version
-- (_tiled_wide) wrote shared memory past its tile on an H200 (CUDA 13.0) at the fuzzer's sizes: two streams
-- over a thread's own row of 3 elements, each copied by a loop of the same shape; ptxas (-O1 and up) started
-- the second copy loop where the first had ended. Right since the offsets' widening multiply is tiler.cuh's
-- tiler_wide_mul.
fun [f32, n0] main([[f32, 3], n0] M1, [f32, 3] zs4, [f32, 3] zs5, [f32, 3] zs14, [f32, s0] size_s0, [f32, s1] size_s1) =
  map(
    fn f32 (int i_row2) =>
      let v3 = streamSeq(
          fn f32 (int kk9, [f32, c7] xc10, [f32, c7] xc11, [f32, c7] xc12, f32 acc6) =>
            loop (acc6) = for k8 < c7 do
              acc6 + (xc10[k8] * xc11[k8] + xc12[k8])
            in acc6,
          M1[i_row2], zs4, zs5, 0.0f32) in
      let v13 = streamSeq(
          fn f32 (int kk18, [f32, c16] xc19, [f32, c16] xc20, f32 acc15) =>
            loop (acc15) = for k17 < c16 do
              acc15 + xc19[k17] * xc20[k17]
            in acc15,
          M1[i_row2], zs14, 0.0f32) in
      max(max(1.5f32, v3), sqrt(abs(1.0f32) + 1.0f32)) + (v3 + v13) * 0.25f32,
    iota(n0))
