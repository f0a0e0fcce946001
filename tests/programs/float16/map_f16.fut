-- An elementwise map in f16: each operation rounds its f32 result to f16,
-- so the kernel gives the interpreter's bits; no stream, nothing to stage.
-- exact: yes
fun [f16, n] main([f16, n] xs, [f16, n] ys, f16 s) =
  map(fn f16 (f16 x, f16 y) =>
        let d = max(x, y) / 1.5f16 in
        sqrt(abs(x * s)) + d - f16(f32(y) * 0.25f32) % 0.75f16
     , xs, ys)
