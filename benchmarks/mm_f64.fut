-- Matrix product in f64. On sm_90 the chunks run on the FP64 matrix units
-- (16 x 8 x 8 instructions), which round as the loop does: each product
-- added in order by a fused multiply-add, the same values as the kernel as
-- written. On sm_80 to sm_89 (8 x 8 x 4) only under --tensor-cores.
fun [[f64, q], m] main([[f64, n], m] A, [[f64, q], n] B0) =
  let B = transpose(B0) in
  map(fn [f64, q] ([f64, n] a) =>
        map(fn f64 ([f64, n] b) =>
              streamSeq(fn f64 (int kk, [f64, chunk] a_c, [f64, chunk] b_c, f64 acc) =>
                          loop (acc) = for k < chunk do
                            acc + a_c[k] * b_c[k]
                          in acc
                       , a, b, 0f64)
           , B)
     , A)
