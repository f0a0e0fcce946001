-- The assignment step of k-means (Rodinia's kmeans): each of n points, d
-- features a point, finds the nearest of k centres (squared Euclidean
-- distance; the first of equal ones). Every point reads every centre: the
-- stream over the centres has chunks of rows ([[f32, d], c]), invariant to
-- the kernel's dimension, so a block copies each chunk of centres into
-- shared memory once for all its threads.
fun [int, n] main([[f32, d], n] points, [[f32, d], k] centres) =
  map(fn int ([f32, d] p) =>
        let (best, bestd) =
          streamSeq(fn (int, f32) (int kk, [[f32, d], c] cc, int best, f32 bestd) =>
                      loop (best, bestd) = for j < c do
                        let dist = loop (s = 0f32) = for f < d do
                                     let t = p[f] - cc[j, f] in s + t * t
                                   in s
                        in if dist < bestd then (kk + j, dist) else (best, bestd)
                      in (best, bestd)
                   , centres, 0, 3.0e38f32)
        in best
     , points)
