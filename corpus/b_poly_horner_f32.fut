-- Evaluate one polynomial with deg coefficients (highest power first) at n
-- points by Horner's rule, streaming the coefficient array. f32, light body.
fun [f32, n] main([f32, n] x, [f32, deg] coef) =
  map(fn f32 (f32 t) =>
        streamSeq(fn f32 (int k0, [f32, c] cs, f32 p) =>
                    loop (p) = for k < c do p * t + cs[k] in p
                 , coef, 0f32)
     , x)
