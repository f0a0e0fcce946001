-- A product of f16 and bf16 inputs accumulated in f32, each element
-- converted where it is read: the usual way to keep 16-bit data and an
-- exact-enough sum.
-- stream: 9:15 tiled 2-D
fun [[f32, m], n] main([[f16, k], n] A, [[bf16, m], k] B) =
  let Bt = transpose(B) in
  map(fn [f32, m] ([f16, k] a) =>
        map(fn f32 ([bf16, k] b) =>
              streamSeq(fn f32 (int kk, [f16, c] ac, [bf16, c] bc, f32 acc) =>
                          loop (acc) = for j < c do acc + f32(ac[j]) * f32(bc[j]) in acc
                       , a, b, 0f32)
           , Bt)
     , A)
