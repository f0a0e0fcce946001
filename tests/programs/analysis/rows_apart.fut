-- The same loop over rows a table picks, but the stream's body weighs each
-- element by its position in the row (`kk + j`): joined, a chunk's start
-- would be a position in the rows laid end to end, so the rows stay apart.
-- stream: 11:17 tiled 1-D block in a 2-D grid
-- join: 11:17 no its chunk's start
fun [[f32, p], g] main([[int, q], g] nb, [[f32, m], r] Q, [[f32, p], g] X) =
  map(fn [f32, p] (int gi, [f32, p] xs) =>
        map(fn f32 (f32 x) =>
              loop (s = 0f32) = for k < q do
                let row = nb[gi, k] in
                streamSeq(fn f32 (int kk, [f32, c] qs, f32 s) =>
                            loop (s) = for j < c do s + qs[j] * x * f32(kk + j) in s
                         , Q[row], s)
              in s
           , xs)
     , zip(iota(g), X))
