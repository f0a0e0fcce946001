-- error: 3:37: `+` needs numbers, got bool
fun [bool, n] main([bool, n] xs) =
  map(fn bool (bool x) => let y = x + x in y, xs)
