-- error: 19:25: inlining this call of `h14` copies helper bodies 32,767 times
-- hint: call each helper once and bind its result with `let`
fun f32 h0(f32 x) = x * 2f32
fun f32 h1(f32 x) = h0(x) + h0(x + 1f32)
fun f32 h2(f32 x) = h1(x) + h1(x + 1f32)
fun f32 h3(f32 x) = h2(x) + h2(x + 1f32)
fun f32 h4(f32 x) = h3(x) + h3(x + 1f32)
fun f32 h5(f32 x) = h4(x) + h4(x + 1f32)
fun f32 h6(f32 x) = h5(x) + h5(x + 1f32)
fun f32 h7(f32 x) = h6(x) + h6(x + 1f32)
fun f32 h8(f32 x) = h7(x) + h7(x + 1f32)
fun f32 h9(f32 x) = h8(x) + h8(x + 1f32)
fun f32 h10(f32 x) = h9(x) + h9(x + 1f32)
fun f32 h11(f32 x) = h10(x) + h10(x + 1f32)
fun f32 h12(f32 x) = h11(x) + h11(x + 1f32)
fun f32 h13(f32 x) = h12(x) + h12(x + 1f32)
fun f32 h14(f32 x) = h13(x) + h13(x + 1f32)
fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) => h14(x), xs)
