-- A matrix product in f16, accumulated in f16: the stream over the shared
-- dimension is tiled in both dimensions and register-tiled, its tiles of
-- 2-byte elements.
-- stream: 9:15 tiled 2-D
fun [[f16, m], n] main([[f16, k], n] A, [[f16, m], k] B) =
  let Bt = transpose(B) in
  map(fn [f16, m] ([f16, k] a) =>
        map(fn f16 ([f16, k] b) =>
              streamSeq(fn f16 (int kk, [f16, c] ac, [f16, c] bc, f16 acc) =>
                          loop (acc) = for j < c do acc + ac[j] * bc[j] in acc
                       , a, b, 0f16)
           , Bt)
     , A)
