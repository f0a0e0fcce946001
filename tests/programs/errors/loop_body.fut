-- error: 4:33: the loop body must give the next value of (s), of type f32; it gives int
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) =>
    loop (s = x) = for k < n do k in s, xs)
