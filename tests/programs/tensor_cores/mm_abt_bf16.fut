-- A times B transposed, bf16 inputs summed in f32: both chunks are rows
-- read along their length, so B's tile holds a column of the product per
-- line (the units read it column-major).
fun [[f32, m], n] main([[bf16, k], n] A, [[bf16, k], m] B) =
  map(fn [f32, m] ([bf16, k] a) =>
        map(fn f32 ([bf16, k] b) =>
              streamSeq(fn f32 (int kk, [bf16, c] ac, [bf16, c] bc, f32 acc) =>
                          loop (acc) = for j < c do acc + f32(ac[j]) * f32(bc[j]) in acc
                       , a, b, 0f32)
           , B)
     , A)
