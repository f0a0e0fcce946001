-- Matrix product C = A B, program (C) of the design note, corrected: the
-- accumulator is f32 (the note declared `int acc` and started it at 0f32).
-- `a` is invariant to the second map and `b` to the first: 2-D tiling.
-- B is transposed in the host prelude, an index permutation only.
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  map(fn [f32, q] ([f32, n] a) =>
        map(fn f32 ([f32, n] b) =>
              streamSeq(fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc) =>
                          loop (acc) = for k < chunk do
                            acc + a_c[k] * b_c[k]
                          in acc
                       , a, b, 0f32)
           , B)
     , A)
