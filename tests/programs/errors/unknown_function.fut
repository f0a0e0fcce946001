-- error: 4:25: `sqrtt` is unknown
-- hint: did you mean `sqrt`?
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => sqrtt(x), xs)
