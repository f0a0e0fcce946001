-- C = A Btᵀ in f32, B given by rows (each row of B one output column): both
-- tiles hold the chunk's positions adjacent, as the TF32 warp-group
-- instruction reads both from shared memory.
fun [[f32, q], m] main([[f32, n], m] A, [[f32, n], q] B) =
  map(fn [f32, q] ([f32, n] a) =>
        map(fn f32 ([f32, n] b) =>
              streamSeq(fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc) =>
                          loop (acc) = for k < chunk do
                            acc + a_c[k] * b_c[k]
                          in acc
                       , a, b, 0f32)
           , B)
     , A)
