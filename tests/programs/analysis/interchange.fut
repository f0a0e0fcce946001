-- The streamed row depends on the inner dimension only, so it is invariant
-- to the OUTER one: the block must span dimension 0, interchanged onto
-- threadIdx.x.
-- block: 0
-- stream: 11:15 tiled 1-D block in a 2-D grid, interchanged
-- input: 11:15 rc invariant=0 shared
fun [[f32, m], n] main([f32, n] w, [[f32, k], m] X) =
  map(fn [f32, m] (f32 wi) =>
        map(fn f32 (int j) =>
              let row = X[j] in
              streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                          loop (acc) = for t < c do acc + wi * rc[t] in acc
                       , row, 0f32)
           , iota(m))
     , w)
