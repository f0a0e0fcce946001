-- error: 3:29: expected an expression, found `,`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => x * , xs)
