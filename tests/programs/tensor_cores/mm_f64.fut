-- A product in f64: with --tensor-cores, the matrix units' f64 instructions
-- (16 x 8 x 8 on sm_90, 8 x 8 x 4 before), summed in another order than the
-- program's.
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
