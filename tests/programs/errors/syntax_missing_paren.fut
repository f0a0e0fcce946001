-- error: 5:3: expected ')', found `in`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) =>
    let y = (x + 1f32
  in y, xs)
