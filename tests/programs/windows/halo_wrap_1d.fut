-- A circular convolution of 9 taps: each point reads the signal 4 places
-- either side, wrapped around its ends. The window moves along x alone, so
-- the block stages it in shared memory, the copy wrapping as the reads do.
fun [f32, n] main([f32, n] x, [f32, 9] f) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for t < 9 do acc + f[t] * x[(i + t - 4 + n) % n]
        in acc,
      iota(n))
