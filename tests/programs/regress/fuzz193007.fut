-- Regression program from tiler fuzz --gpu, seed 193007: a 2-D kernel whose rows' dim walks grid
-- y, and whose block stages each thread's own row (row4) once. Where grid y's blocks are walked by
-- a loop (more than 65,535 of them), the next pass rewrote that shared array while threads could
-- still read it; the verifier refused the kernel. A barrier now ends each pass.
fun [[f32, n1], n0] main([f32, n0] xs1, [[f32, 8], n1] M3, [f32, s0] zs6, [f32, s0] zs7, [f32, s1] size_s1) =
  map(
    fn [f32, n1] (f32 x2) =>
      map(
        fn f32 ([f32, 8] row4) =>
          let v5 = streamSeq(
              fn f32 (int kk11, [int, c9] xc12, [f32, c9] xc13, [f32, c9] xc14, f32 acc8) =>
                loop (acc8) = for k10 < c9 do
                  xc13[k10]
                in acc8,
              iota(s0), zs6, zs7, 0.0f32) in
          let v15 = loop (s16 = 0.0f32) = for f17 < 8 do
              let d18 = row4[f17] in
              d18
            in s16 in
          v5 + v15,
        M3),
    xs1)
