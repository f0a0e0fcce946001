-- Regression program from tiler fuzz --gpu, seed 130806 (tests/FUZZ.md). Its tiled module did not
-- compile: the host launcher's alignment test for a version with 128-bit copies that reads an
-- input transposed by the launch named the launch's copy (X15_t) before it exists, instead of the
-- caller's arrays only (the copy is the launcher's own allocation, aligned already).
fun ([f32, n0], [f32, n0]) main([f32, n0] xs1, [[f32, n0], s0] P5, [f32, s0] zs7, [[f32, s0], n0] X15, [[int, 4], n0] nb17, [[f32, s1], n0] G18, [[f32, s1], n0] G19, [int, n0] idx29, [[f32, s0], r0] Q30, [[f32, n0], s0] P31, [[f32, s0], n0] X40, [[f32, n0], s0] P41, [[f32, n0], s0] P43) =
  let T6 = transpose(P5) in
  let T32 = transpose(P31) in
  let T42 = transpose(P41) in
  let T44 = transpose(P43) in
  map(
    fn (f32, f32) (f32 x2, int i3) =>
      let v4 = if i3 % 2 == 0
          then streamSeq(
              fn f32 (int kk11, [int, c9] xc12, [f32, c9] xc13, [f32, c9] xc14, f32 acc8) =>
                loop (acc8) = for k10 < c9 do
                  acc8 + (f32(xc12[k10]) * xc13[k10] * xc14[k10] + (if (k10 + kk11) % 2 == 0
                       then X15[i3, k10 + kk11]
                       else 0.5f32)) * x2
                in acc8,
              iota(s0), T6[min(i3, n0 - 1)], zs7, 0.0f32)
          else 0.5f32 in
      let v16 = loop (g20 = 0.0f32) = for t21 < 4 do
          let rw22 = nb17[min(i3, n0 - 1), t21] in
          streamSeq(
            fn f32 (int kk25, [f32, c23] gc26, [f32, c23] gc27, f32 g20) =>
              loop (g20) = for j24 < c23 do
                g20 + (gc26[j24] + gc27[j24]) * v4
              in g20,
            G18[rw22], G19[rw22], g20)
        in g20 in
      let v28 = let (p52, q53) = streamSeq(
            fn (f32, f32) (int kk37, [f32, c35] xc38, [f32, c35] xc39, f32 acc33, f32 acc34) =>
              loop (acc33, acc34) = for k36 < c35 do
                (acc33 + (xc38[k36] + xc39[k36] + X40[i3, kk37 + k36]) + streamSeq(
                    fn f32 (int kk48, [int, c46] xc49, [f32, c46] xc50, [f32, c46] xc51, f32 acc45) =>
                      loop (acc45) = for k47 < c46 do
                        acc45 + (f32(xc49[k47]) + xc50[k47]) * xc51[k47]
                      in acc45,
                    iota(s0), T42[min(i3, n0 - 1)], T44[min(i3, n0 - 1)], 0.0f32) * 0.001f32, acc34 + (xc38[k36] + xc39[k36] + X40[i3, kk37 + k36]))
              in (acc33, acc34),
            Q30[idx29[min(i3, n0 - 1)]], T32[min(i3, n0 - 1)], 0.0f32, -1000.0f32) in
        p52 + q53 * 0.001f32 in
      ((v16 + 0.5f32) / (abs(v28 * x2) + 1.0f32), f32(i3)),
    zip(xs1, iota(n0)))
