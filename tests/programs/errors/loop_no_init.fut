-- error: 4:31: loop variable `s` has no start value: no `s` is in scope
-- hint: write `loop (s = 0f32)`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => loop (s) = for k < n do s + x in s, xs)
