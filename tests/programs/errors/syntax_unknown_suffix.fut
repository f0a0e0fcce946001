-- error: 3:29: unknown literal suffix `u8` in `3u8`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => x + 3u8, xs)
