-- error: 5:52: a streamRed's combine reads only its parameters: `t` is bound outside it
-- hint: it merges two partial results wherever they were made; what it needs must come in through the accumulators
fun [f32, n] main([[f32, m], n] A, f32 t) =
  map(fn f32 ([f32, m] r) =>
        streamRed(fn f32 (f32 a, f32 b) => a + b + t,
                  fn f32 (int kk, [f32, c] xs, f32 s) =>
                    loop (s) = for k < c do s + xs[k] in s,
                  r, 0f32),
      A)
