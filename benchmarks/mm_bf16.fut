-- Matrix product of bf16 matrices, summed in f32: each element is widened
-- where it is read, so the sum keeps f32's precision. Under --tensor-cores
-- the full chunks run as bf16 matrix instructions with f32 accumulators.
fun [[f32, q], m] main([[bf16, n], m] A, [[bf16, q], n] B0) =
  let B = transpose(B0) in
  map(fn [f32, q] ([bf16, n] a) =>
        map(fn f32 ([bf16, n] b) =>
              streamSeq(fn f32 (int kk, [bf16, chunk] a_c, [bf16, chunk] b_c, f32 acc) =>
                          loop (acc) = for k < chunk do
                            acc + f32(a_c[k]) * f32(b_c[k])
                          in acc
                       , a, b, 0f32)
           , B)
     , A)
