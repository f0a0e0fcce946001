-- error: 4:7: unexpected character '\\'
-- hint: a lambda is `fn R (T x, ...) => body`
fun [f32, n] main([f32, n] xs) =
  map(\x -> x * 2f32, xs)
