-- A centred 1-D convolution whose filter length m is known only at launch:
-- each point reads x from m / 2 places before it to m - m / 2 - 1 after,
-- clamped at the signal's ends. The block stages its window in shared
-- memory the launch sizes from m.
fun [f32, n] main([f32, n] x, [f32, m] f) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for t < m do acc + f[t] * x[min(max(i + t - m / 2, 0), n - 1)]
        in acc,
      iota(n))
