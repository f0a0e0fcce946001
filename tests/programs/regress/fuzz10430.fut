-- Regression program from tiler fuzz --gpu, seed 10430 (as generated). Its tiled kernel was wrong on an
-- H200 (CUDA 13.0): a ptxas defect in nested integer minimums of a thread index; tests/ptxas/min.cu
-- shows it, and tiler.cuh's tiler_min avoids it. The fuzzer's sizes and inputs for seed 10430 show it.
fun ([[f32, n1], n0], [[f32, n1], n0]) main([f32, n0] xs1, [f32, n1] xs4, [[f32, n0], s1] P8, [f32, s1] zs10, [f32, s0] size_s0) =
  let T9 = transpose(P8) in
  map(
    fn ([f32, n1], [f32, n1]) (f32 x2, int i3) =>
      let t17 = x2 * 0.5f32 in
      map(
        fn (f32, f32) (f32 x5, int i6) =>
          let v7 = if i3 % 2 == 0
              then streamSeq(
                  fn f32 (int kk14, [f32, c12] xc15, [f32, c12] xc16, f32 acc11) =>
                    loop (acc11) = for k13 < c12 do
                      acc11 + xc15[k13] * xc16[k13]
                    in acc11,
                  T9[min(i6, n0 - 1)], zs10, 0.0f32)
              else f32(i6) in
          ((f32(i6) - x5) * sqrt(abs(x5) + 1.0f32), f32(i6) / (abs(v7) + 1.0f32) * (f32(i3) * v7)),
        zip(xs4, iota(n1))),
    zip(xs1, iota(n0)))
