-- error: 3:9: function `f` is defined twice
fun f32 f(f32 x) = x
fun f32 f(f32 x) = x + x
fun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => f(x), xs)
