-- Each point of group gi folds the rows its group's table picks (through a
-- row number read from the table, then an offset into Q and W): the loop's
-- body is the stream, which carries the loop's two accumulators and needs
-- nothing of a row but its elements, so the loop's rows are streamed end to
-- end (rows of m elements, a chunk holding the end of one and the start of
-- the next).
-- block: 1
-- stream: 17:17 tiled 1-D block in a 2-D grid
-- input: 17:17 qs invariant=1 shared
-- join: 17:17 yes laid end to end
fun [[f32, p], g] main([[int, q], g] nb, [[f32, m], r] Q, [[f32, m], r] W, [[f32, p], g] X) =
  map(fn [f32, p] (int gi, [f32, p] xs) =>
        map(fn f32 (f32 x) =>
              loop (s = 0f32, t = -1000f32) = for k < q do
                let row = nb[gi, k] in
                let at = min(row, r - 1) in
                streamSeq(fn (f32, f32) (int kk, [f32, c] qs, [f32, c] ws, f32 s, f32 t) =>
                            loop (s, t) = for j < c do (s + qs[j] * x, max(t, ws[j] - x)) in (s, t)
                         , Q[at], W[at], s, t)
              in s + t * 0.5f32
           , xs)
     , zip(iota(g), X))
