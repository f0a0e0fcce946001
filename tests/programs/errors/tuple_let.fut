-- error: 3:25: the pattern has 3 names but the value is (f32, f32)
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => let (a, b, c) = (x, x) in a, xs)
