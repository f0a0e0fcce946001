-- error: 3:31: unexpected `)`: expected an operator, `fun` or the end of the file
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => x, xs))
