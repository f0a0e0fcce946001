-- error: 4:25: `main` is the entry point and cannot be called
fun f32 h(f32 v) = v
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => main(xs), xs)
