-- error: 6:3: expected 'in', found `,`
-- hint: a `let` or `loop` ends with `in`
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) =>
    loop (acc) = for k < 3 do acc + x
  , xs)
