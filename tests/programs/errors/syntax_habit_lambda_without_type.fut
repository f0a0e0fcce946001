-- error: 4:20: expected ')', found `row`
-- hint: a lambda gives its result type first
fun [f32, n] main([[f32, m], n] A) =
  map(fn ([f32, m] row) => row[0], A)
