-- error: 3:33: `zip` can only be an argument of `map` or `streamSeq`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => let z = zip(xs, xs) in x, xs)
