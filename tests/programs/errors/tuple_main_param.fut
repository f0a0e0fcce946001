-- error: 3:30: main's parameter `t` is a tuple (f32, f32)
-- hint: pass the tuple's parts as parameters of their own
fun [f32, n] main((f32, f32) t, [f32, n] xs) =
  map(fn f32 (f32 x) => x, xs)
