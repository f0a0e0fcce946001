-- k-means' assignment step with the distance in a helper that takes the
-- thread's row and a centre: inlined, the helper's parameter names the row
-- (`let a = p`), and its reads `a[t]` are the row's, so the block stages its
-- points' rows as for own_row_by_let (a row passed whole would not be).
-- stream: 15:11 tiled 1-D
-- input: 15:11 cc invariant=0 shared
fun f32 sqdist([f32, 34] a, [f32, 34] b) =
  loop (s = 0f32) = for t < 34 do
    let u = a[t] - b[t] in s + u * u
  in s

fun [int, n] main([[f32, 34], n] points, [[f32, 34], k] centres) =
  map(fn int ([f32, 34] p) =>
        let (best, bestd) =
          streamSeq(fn (int, f32) (int kk, [[f32, 34], c] cc, int best, f32 bestd) =>
                      loop (best, bestd) = for j < c do
                        let dist = sqdist(p, cc[j]) in
                        if dist < bestd then (kk + j, dist) else (best, bestd)
                      in (best, bestd)
                   , centres, 0, 3.0e38f32)
        in best
     , points)
