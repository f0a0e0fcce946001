-- Gram matrix G = A A^T for n feature vectors of fixed length 32.
fun [[f32, n], n] main([[f32, 32], n] A) =
  map(fn [f32, n] ([f32, 32] u) =>
        map(fn f32 ([f32, 32] v) =>
              loop (g = 0f32) = for d < 32 do g + u[d] * v[d] in g,
            A),
      A)
