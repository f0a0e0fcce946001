-- error: 5:32: a streamRed's combine merges two partial results of its 2 accumulators, so it takes 4 parameters; it takes 2
-- hint: write `fn (f32, int) (f32 s1, int n1, f32 s2, int n2) => ...`
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        let (s, q) = streamRed(fn f32 (f32 a, f32 b) => a + b,
                  fn (f32, int) (int kk, [f32, c] xs, f32 s, int n) =>
                    loop (s, n) = for k < c do (s + xs[k], n + 1) in (s, n),
                  r, 0f32, 0)
        in s / f32(q),
      A)
