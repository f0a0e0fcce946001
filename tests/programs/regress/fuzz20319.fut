-- Regression program from tiler fuzz --gpu, seed 20319 (as generated). Its tiled kernel was wrong on an
-- H200 (CUDA 13.0): a ptxas defect in nested integer minimums of a thread index; tests/ptxas/min.cu
-- shows it, and tiler.cuh's tiler_min avoids it. The fuzzer's sizes and inputs for seed 20319 show it.
fun [[f32, n1], n0] main(f32 a1, [f32, n0] xs2, [f32, n1] xs5, [int, n0] idx9, [[f32, s1], r0] Q10, [f32, s1] zs11, [[f32, n0], s1] P19, [f32, s0] size_s0) =
  let T20 = transpose(P19) in
  map(
    fn [f32, n1] (f32 x3, int i4) =>
      map(
        fn f32 (f32 x6, int i7) =>
          let v8 = if i4 % 2 == 0
              then streamSeq(
                  fn f32 (int kk15, [f32, c13] xc16, [f32, c13] xc17, f32 acc12) =>
                    loop (acc12) = for k14 < c13 do
                      acc12 + xc16[k14] * xc17[k14] * a1
                    in acc12,
                  Q10[idx9[min(i7, n0 - 1)]], zs11, 0.0f32)
              else max(a1 * f32(i4), f32(i4) - f32(i4)) in
          let v18 = streamSeq(
              fn f32 (int kk24, [f32, c22] xc25, f32 acc21) =>
                loop (acc21) = for k23 < c22 do
                  acc21 + xc25[k23] * v8
                in acc21,
              T20[min(i7, n0 - 1)], 0.0f32) in
          let v26 = v18 in
          a1 + v18 / (abs(a1) + 1.0f32),
        zip(xs5, iota(n1))),
    zip(xs2, iota(n0)))
