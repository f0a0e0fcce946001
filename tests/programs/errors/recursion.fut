-- error: 3:37: recursive call of `f`
-- hint: helpers are inlined into the kernel, so they cannot recurse
fun f32 f(f32 v) = if v > 1f32 then f(v / 2f32) else v
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => f(x), xs)
