-- Regression program from tiler fuzz --gpu, seed 344, shrunk on the GPU (tests/FUZZ.md). Its tiled
-- kernel was wrong on an H200 (CUDA 13.0) at the fuzzer's sizes for seed 344 (n0 = 13, n1 = 49, r0 = 29,
-- s0 = 63, s1 = 13): the ptxas defect of tests/ptxas/min.cu (nested integer minimums of a thread index),
-- which tiler.cuh's tiler_min avoids.
fun ([[f32, n1], n0], [[f32, n1], n0]) main(f32 a1, [f32, n0] xs2, [f32, n1] xs5, [f32, s1] zs9, [f32, s1] zs10, [int, n0] idx18, [[f32, s1], r0] Q19, [f32, s1] zs20, [[f32, n0], s0] P28, [f32, s0] zs30, [f32, s0] zs31) =
  let T29 = transpose(P28) in
  map(
    fn ([f32, n1], [f32, n1]) (f32 x3, int i4) =>
      map(
        fn (f32, f32) (f32 x6, int i7) =>
          let v8 = streamSeq(
              fn f32 (int kk14, [int, c12] xc15, [f32, c12] xc16, [f32, c12] xc17, f32 acc11) =>
                loop (acc11) = for k13 < c12 do
                  streamSeq(
                    fn f32 (int kk24, [f32, c22] xc25, [f32, c22] xc26, f32 acc21) =>
                      1.0f32,
                    Q19[idx18[i4]], zs20, 0.0f32)
                in acc11,
              iota(s1), zs9, zs10, 0.0f32) in
          let v27 = streamSeq(
              fn f32 (int kk35, [f32, c33] xc36, [f32, c33] xc37, [f32, c33] xc38, f32 acc32) =>
                loop (acc32) = for k34 < c33 do
                  acc32 + xc36[k34]
                in acc32,
              T29[min(i7, n0 - 1)], zs30, zs31, 0.0f32) in
          (x3, v27),
        zip(xs5, iota(n1))),
    zip(xs2, iota(n0)))

