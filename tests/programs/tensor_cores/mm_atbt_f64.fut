-- A transposed times B transposed in f64: under --tensor-cores both tiles
-- are read column-major by f64 instructions.
fun [[f64, m], n] main([[f64, n], k] A0, [[f64, k], m] B) =
  let A = transpose(A0) in
  map(fn [f64, m] ([f64, k] a) =>
        map(fn f64 ([f64, k] b) =>
              streamSeq(fn f64 (int kk, [f64, c] ac, [f64, c] bc, f64 acc) =>
                          loop (acc) = for j < c do acc + ac[j] * bc[j] in acc
                       , a, b, 0f64)
           , B)
     , A)
