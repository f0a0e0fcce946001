-- A circular convolution whose reach (2,500 places either side) is wider
-- than the signal at the sizes tested: a point's reads wrap around the
-- array more than once in all, each read by ((a % n) + n) % n. The window
-- is staged with its halo, the copy wrapping as the reads do.
fun [f32, n] main([f32, n] x, [f32, 5001] f) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for t < 5001 do acc + f[t] * x[(((i + t - 2500) % n) + n) % n]
        in acc,
      iota(n))
