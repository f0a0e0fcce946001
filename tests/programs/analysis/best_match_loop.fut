-- Each query's best match among the k rows of R by dot product (the
-- largest, the first of equal ones), the fold over the rows written as a
-- plain loop that reads R[j, f]. The product of a query and row j reads
-- none of the fold's accumulators: a 2-D kernel computes every (query,
-- row) product first, register-tiled, and the loop folds them.
-- fission: yes
fun [int, n] main([[f32, d], n] Q, [[f32, d], k] R) =
  map(fn int ([f32, d] q) =>
        let (best, top) =
          loop (best = 0, top = -3.0e38f32) = for j < k do
            let s = loop (a = 0f32) = for f < d do a + q[f] * R[j, f] in a
            in if s > top then (j, s) else (best, top)
          in (best, top)
        in best
     , Q)
