-- Regression program from tiler fuzz --gpu, seed 640373 (tests/FUZZ.md). Its 64-bit-offset tiled version
-- (_tiled_wide) gave wrong values for block 1's rows on an H100 (CUDA 13.0) at the fuzzer's sizes (n0 = 31):
-- two streams over a thread's own row, each copied to shared memory by a loop of the same shape; ptxas (-O1
-- and up) miscompiled the second copy loop. Right since the offsets' widening multiply is tiler.cuh's
-- tiler_wide_mul.
fun [f32, n0] main(f32 a1, [[f32, 34], n0] M2, [f32, s0] size_s0, [f32, s1] size_s1) =
  map(
    fn f32 ([f32, 34] row3) =>
      let v4 = loop (s5 = 0.0f32) = for f6 < 34 do
          let d7 = row3[f6] - sqrt(abs(0.25f32) + 1.0f32) in
          s5 + d7 * d7
        in s5 in
      let v8 = loop (s9 = 0.0f32) = for f10 < 34 do
          let d11 = row3[f10] - v4 * a1 in
          s9 + d11 * d11
        in s9 in
      let v12 = streamSeq(
          fn f32 (int kk16, [int, c14] xc17, f32 acc13) =>
            loop (acc13) = for k15 < c14 do
              acc13 + f32(xc17[k15])
            in acc13,
          iota(s1), 0.0f32) in
      sin(max(v8, a1)) + (v4 + v8 + v12) * 0.25f32,
    M2)
