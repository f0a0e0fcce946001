-- The 9-tap circular convolution with its wrap written the way that holds
-- for any sign, ((a % n) + n) % n: the same window as `(a + n) % n`, wrapped
-- by n, staged in shared memory with its halo.
fun [f32, n] main([f32, n] x, [f32, 9] f) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for t < 9 do acc + f[t] * x[(((i + t - 4) % n) + n) % n]
        in acc,
      iota(n))
