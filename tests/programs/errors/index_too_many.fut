-- error: 3:30: `x` has 1 dimension ([f32, m]) but is indexed with 2 indices
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] x) => x[0, 1], A)
