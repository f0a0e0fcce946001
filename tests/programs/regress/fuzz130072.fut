-- Regression program from tiler fuzz --gpu, seed 130072 (tests/FUZZ.md). The oracle, not a kernel,
-- was wrong: sin of a sum of squares near 1.25e7, where nvcc's fused multiply-adds move the sum by
-- an ulp and the sine by 0.26. The reference now also runs f32 with a * b + c rounded once, so
-- such elements count as having no meaningful float32 value.
fun ([[f32, n1], n0], [[f32, n1], n0]) main(f32 a1, [[f32, s0], n0] M2, [f32, n1] xs4, [f32, s1] size_s1) =
  map(
    fn ([f32, n1], [f32, n1]) ([f32, s0] row3) =>
      map(
        fn (f32, f32) (f32 x5, int i6) =>
          let v7 = f32(i6) * (a1 + max(f32(i6), f32(i6))) in
          let v8 = loop (s9 = 0.0f32) = for f10 < s0 do
              let d11 = row3[f10] - (f32(i6) + v7) in
              s9 + d11 * d11
            in s9 in
          (v7 + (v7 + v8) * 0.25f32, sqrt(abs(sin(v8)) + 1.0f32)),
        zip(xs4, iota(n1))),
    M2)
