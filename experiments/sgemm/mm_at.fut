-- The matrix product of benchmarks/mm.fut given A transposed (At: n x m): both tiles boxes of the
-- arrays as they lie, no launch transposition (experiments/verify/session41c.sh times its kernel alone).
fun [[f32, q], m] main([[f32, m], n] At, [[f32, q], n] B0) =
  let A = transpose(At) in
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
