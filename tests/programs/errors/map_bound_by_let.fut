-- error: 3:3: the kernel's map nest must be main's result, not bound by `let`
fun [f32, n] main([f32, n] xs) =
  let ys = map(fn f32 (f32 x) => x, xs) in ys
