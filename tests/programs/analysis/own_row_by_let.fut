-- k-means' assignment step with the thread's row named by a let
-- (`let p = points[i]`) and read by element (`p[f]`): the let names the
-- row, it copies nothing, so the kernel reads `points[i, f]` where `p[f]`
-- is read, and the block stages its points' rows as for own_row_by_index.
-- stream: 11:11 tiled 1-D
-- input: 11:11 cc invariant=0 shared
fun [int, n] main([[f32, 34], n] points, [[f32, 34], k] centres) =
  map(fn int (int i) =>
        let p = points[i] in
        let (best, bestd) =
          streamSeq(fn (int, f32) (int kk, [[f32, 34], c] cc, int best, f32 bestd) =>
                      loop (best, bestd) = for j < c do
                        let dist = loop (s = 0f32) = for f < 34 do
                                     let t = p[f] - cc[j, f] in s + t * t
                                   in s
                        in if dist < bestd then (kk + j, dist) else (best, bestd)
                      in (best, bestd)
                   , centres, 0, 3.0e38f32)
        in best
     , iota(n))
