-- C = A B with B transposed in the prelude, so both operands are rows and the
-- dot product is a small helper that streams them together.
fun f32 dot([f32, k] a, [f32, k] b) =
  streamSeq(fn f32 (int off, [f32, ch] ac, [f32, ch] bc, f32 s) =>
              loop (s) = for t < ch do s + ac[t] * bc[t] in s,
            a, b, 0f32)

fun [[f32, m], n] main([[f32, p], n] A, [[f32, m], p] B) =
  let Bt = transpose(B) in
  map(fn [f32, m] ([f32, p] arow) =>
        map(fn f32 ([f32, p] bcol) => dot(arow, bcol), Bt),
      A)
