-- error: 4:37: expected ')', found `fn`
-- hint: tiler has no `reduce`: a reduction is a `loop` or `streamSeq`
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) => reduce(fn f32 (f32 a, f32 b) => a + b, 0f32, r), A)
