-- An elementwise map in bf16 over an index and an element: conversions
-- from an int and an f64, a comparison, a builtin of two arguments.
-- exact: yes
fun [bf16, n] main([bf16, n] xs) =
  map(fn bf16 (int i, bf16 x) =>
        let w = bf16(i % 7) * 0.5bf16 - bf16(1.0e-3f64) in
        if x < w then min(x * 3bf16, -x) else -(x + w)
     , iota(n), xs)
