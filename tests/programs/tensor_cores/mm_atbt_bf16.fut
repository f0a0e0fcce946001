-- A transposed times B transposed, bf16 summed in f32: both tiles are read
-- column-major (A through ldmatrix's transpose, B without it).
fun [[f32, m], n] main([[bf16, n], k] A0, [[bf16, k], m] B) =
  let A = transpose(A0) in
  map(fn [f32, m] ([bf16, k] a) =>
        map(fn f32 ([bf16, k] b) =>
              streamSeq(fn f32 (int kk, [bf16, c] ac, [bf16, c] bc, f32 acc) =>
                          loop (acc) = for j < c do acc + f32(ac[j]) * f32(bc[j]) in acc
                       , a, b, 0f32)
           , B)
     , A)
