-- Two levels of indirect indexing pick the streamed row from the outer
-- thread index only: invariant to the inner dimension.
-- block: 1
-- stream: 11:15 tiled 1-D block in a 2-D grid
-- input: 11:15 rc invariant=1 shared
fun [[f32, m], n] main([int, n] first, [int, b] second, [[f32, k], r] rows, [f32, m] scale) =
  map(fn [f32, m] (int i) =>
        map(fn f32 (f32 s) =>
              let j = second[first[i]] in
              let row = rows[j] in
              streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                          loop (acc) = for t < c do acc + s * rc[t] in acc
                       , row, 0f32)
           , scale)
     , iota(n))
