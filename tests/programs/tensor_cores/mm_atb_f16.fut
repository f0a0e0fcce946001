-- A transposed times B, f16 inputs summed in f32: A's rows are columns of
-- A0, so its tile holds a chunk position per line (the units read A
-- column-major) and B's as in the plain product.
fun [[f32, m], n] main([[f16, n], k] A0, [[f16, m], k] B0) =
  let A = transpose(A0) in
  let B = transpose(B0) in
  map(fn [f32, m] ([f16, k] a) =>
        map(fn f32 ([f16, k] b) =>
              streamSeq(fn f32 (int kk, [f16, c] ac, [f16, c] bc, f32 acc) =>
                          loop (acc) = for j < c do acc + f32(ac[j]) * f32(bc[j]) in acc
                       , a, b, 0f32)
           , B)
     , A)
