-- A product whose sum starts from a bias: the matrix units' share of the
-- sum is added to the accumulator after the stream, so it may start anywhere.
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0, [f32, q] bias) =
  let B = transpose(B0) in
  map(fn [f32, q] ([f32, n] a) =>
        map(fn f32 ([f32, n] b, f32 c) =>
              streamSeq(fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc) =>
                          loop (acc) = for k < chunk do
                            b_c[k] * a_c[k] + acc
                          in acc
                       , a, b, c)
           , B, bias)
     , A)
