-- error: 4:32: an index must be an int, got f32
-- hint: convert it: int(1.5f32)
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] x) => x[1.5f32], A)
