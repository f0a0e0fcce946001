-- error: 5:34: combine parameter `b` is declared f64, but the accumulator it merges is f32
-- hint: the combine takes the accumulators' types twice: `fn f32 (f32 s1, f32 s2) => ...`
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        streamRed(fn f32 (f32 a, f64 b) => a + f32(b),
                  fn f32 (int kk, [f32, c] xs, f32 s) =>
                    loop (s) = for k < c do s + xs[k] in s,
                  r, 0f32),
      A)
