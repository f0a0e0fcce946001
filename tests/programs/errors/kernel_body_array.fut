-- error: 3:35: the kernel body must give scalars, one per output array; it gives [f32, m]
fun [[f32, m], n] main([[f32, m], n] A) =
  map(fn [f32, m] ([f32, m] a) => a, A)
