-- Regression program from tiler fuzz --gpu, seed 725898 (tests/FUZZ.md): the oracle, not the kernels. Every
-- kernel, untiled too, gave 14.0 at (44, 14) where float64 ends at 14.86: sin(v19) of v19 = -1.78e8, a sum
-- whose size comes from the hash constant -465 * 0.5 (float32's spacing there is 16, so its sine is lost).
-- The float32 runs and the nudged float64 ones happened to agree within 0.07; the reference's float64 runs
-- now also round every f32 operation at random (jitter), which shows the element has no float32 value.
fun ([[f32, n1], n0], [[f32, n1], n0]) main([f32, n0] xs1, [f32, n1] xs5, [[f32, 8], s0] C9, [[f32, n0], s1] P20, [[f32, n1], s1] P22, [f32, s1] ws30) =
  let T21 = transpose(P20) in
  let T23 = transpose(P22) in
  map(
    fn ([f32, n1], [f32, n1]) (f32 x2, int i3) =>
      let t4 = x2 * 0.5f32 in
      map(
        fn (f32, f32) (f32 x6, int i7) =>
          let v8 = streamSeq(
              fn f32 (int kk12, [[f32, 8], c18] cc10, f32 acc13) =>
                loop (acc13) = for j11 < c18 do
                  acc13 + (let r14 = cc10[j11] in
                   loop (s15 = 0.0f32) = for f16 < 8 do
                     let d17 = r14[f16] - f32((i7 * 1103515245 + 12345) % 1024) * 0.5f32 in
                     s15 + d17 * d17
                   in s15)
                in acc13,
              C9, 0.0f32) in
          let v19 = streamSeq(
              fn f32 (int kk27, [f32, c25] xc28, [f32, c25] xc29, f32 acc24) =>
                loop (acc24) = for k26 < c25 do
                  acc24 + (xc28[k26] + xc29[k26] + ws30[k26 + kk27]) * v8
                in acc24,
              T21[i3], T23[i7], 0.0f32) in
          (max(x2, f32(i7)) + sin(v19), 1.0f32),
        zip(xs5, iota(n1))),
    zip(xs1, iota(n0)))
