-- error: 4:16: an `if` cannot choose between arrays (its branches are [f32, n])
-- hint: choose between their elements instead
fun [f32, n] pick(bool c, [f32, n] a, [f32, n] b) =
  let chosen = if c then a else b in chosen
fun [f32, n] main(f32 x, [f32, n] xs, [f32, n] ys) =
  map(fn f32 (f32 v) => v + pick(x < 0f32, xs, ys)[0], xs)
