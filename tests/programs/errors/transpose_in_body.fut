-- error: 4:38: `transpose` is only allowed in the host prelude
-- hint: bind it in main
fun [f32, n] main([[f32, n], n] A) =
  map(fn f32 ([f32, n] a) => let t = transpose(A) in a[0], A)
