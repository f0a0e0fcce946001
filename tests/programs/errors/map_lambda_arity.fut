-- error: 3:7: the lambda takes 1 parameter(s), but map gives it 2 array(s)
fun [f32, n] main([f32, n] xs, [f32, n] ys) =
  map(fn f32 (f32 x) => x, zip(xs, ys))
