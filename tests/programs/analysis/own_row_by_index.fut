-- k-means' assignment step written with indices: each thread reads row i
-- of `points` by element (`points[i, f]`), which the kernel stage makes a
-- row of the map, so the block copies its points' rows into shared memory
-- (one run of 16-byte copies: rows of 34 lie one after another), as it does
-- for benchmarks/kmeans.fut's `map` over the rows.
-- stream: 11:11 tiled 1-D
-- input: 11:11 cc invariant=0 shared
fun [int, n] main([[f32, 34], n] points, [[f32, 34], k] centres) =
  map(fn int (int i) =>
        let (best, bestd) =
          streamSeq(fn (int, f32) (int kk, [[f32, 34], c] cc, int best, f32 bestd) =>
                      loop (best, bestd) = for j < c do
                        let dist = loop (s = 0f32) = for f < 34 do
                                     let t = points[i, f] - cc[j, f] in s + t * t
                                   in s
                        in if dist < bestd then (kk + j, dist) else (best, bestd)
                      in (best, bestd)
                   , centres, 0, 3.0e38f32)
        in best
     , iota(n))
