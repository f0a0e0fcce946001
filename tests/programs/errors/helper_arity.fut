-- error: 5:25: `twice` takes 1 argument(s), got 2
fun f32 twice(f32 v) = v + v
fun [f32, n] main([f32, n] xs) =
  -- too many arguments
  map(fn f32 (f32 x) => twice(x, x), xs)
