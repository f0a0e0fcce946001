-- error: 2:9: no function is called `main`
fun f32 f(f32 x) = x
fun [f32, n] g([f32, n] xs) = map(fn f32 (f32 x) => x, xs)
