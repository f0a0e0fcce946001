-- A transposed times B in f32: under --tensor-cores A's tile is read
-- column-major by TF32 instructions, element by element.
fun [[f32, m], n] main([[f32, n], k] A0, [[f32, m], k] B0) =
  let A = transpose(A0) in
  let B = transpose(B0) in
  map(fn [f32, m] ([f32, k] a) =>
        map(fn f32 ([f32, k] b) =>
              streamSeq(fn f32 (int kk, [f32, c] ac, [f32, c] bc, f32 acc) =>
                          loop (acc) = for j < c do acc + ac[j] * bc[j] in acc
                       , a, b, 0f32)
           , B)
     , A)
