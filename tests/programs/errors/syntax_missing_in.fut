-- error: 4:5: expected 'in', found `x`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => let y = x * 2f32
    x, xs)
