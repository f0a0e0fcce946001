-- error: 4:44: expected ',', found `.`
-- hint: bind a tuple's parts with `let (a, b) = e in ...`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => let t = (x, x) in t.0, xs)
