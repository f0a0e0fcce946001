-- error: 4:31: argument `x` of `first` is f32, but parameter `r` is [f32, d]
fun f32 first([f32, d] r) = r[0]
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => first(x), xs)
