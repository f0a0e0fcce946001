-- error: 6:19: streamRed takes two lambdas before its arrays: its combine, then its fold
-- hint: write streamRed(fn A (A a, A b) => ..., fn A (int kk, [T, c] xs, A acc) => ..., xs, ne); a helper may compute the combine's value, but not stand for the lambda
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        streamRed(fn f32 (int kk, [f32, c] xs, f32 s) => loop (s) = for k < c do s + xs[k] in s,
                  r, 0f32),
      A)
