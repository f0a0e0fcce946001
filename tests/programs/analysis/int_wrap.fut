-- Integer arithmetic wraps around: a linear congruential generator
-- (x * 1664525 + 1013904223, modulo 2^32) stepped from each seed and key a
-- thread streams, keeping the smallest magnitude seen. The products pass 2^31
-- at once; C's signed arithmetic would leave them undefined (and nvcc's
-- optimiser assumes they never happen), so the kernels compute them unsigned.
-- stream: 10:9 tiled 1-D
-- input: 10:9 kc invariant=0 shared
fun [int, n] main([int, n] seeds, [int, m] keys) =
  map(fn int (int s) =>
        streamSeq(fn int (int k0, [int, c] kc, int best) =>
                    loop (best) = for k < c do
                      let x = (s + kc[k]) * 1664525 + 1013904223 in
                      let y = x * 22695477 + 1 in
                      min(best, if y < 0 then -y else y)
                    in best,
                  keys, 2147483647),
      seeds)
