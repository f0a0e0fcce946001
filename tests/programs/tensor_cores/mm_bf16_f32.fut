-- A product of bf16 inputs summed in f32, each element converted where it
-- is read: with --tensor-cores, 16 x 16 x 16 bf16 instructions with f32
-- accumulators.
fun [[f32, m], n] main([[bf16, k], n] A, [[bf16, m], k] B) =
  let Bt = transpose(B) in
  map(fn [f32, m] ([bf16, k] a) =>
        map(fn f32 ([bf16, k] b) =>
              streamSeq(fn f32 (int kk, [bf16, c] ac, [bf16, c] bc, f32 acc) =>
                          loop (acc) = for j < c do acc + f32(ac[j]) * f32(bc[j]) in acc
                       , a, b, 0f32)
           , Bt)
     , A)
