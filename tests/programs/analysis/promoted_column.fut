-- A product that reads B's column j by index, on some steps only: the read
-- is under a branch on the data, but its other index is the map's own, so
-- a copy of every element stays in bounds. It becomes stream input B_c, a
-- row of B's transpose, and is staged beside the row of A.
-- block: 1,0
-- stream: 12:15 tiled 2-D
-- input: 12:15 ac invariant=1 shared
-- input: 12:15 B_c invariant=0 shared
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B) =
  map(fn [f32, q] ([f32, n] a) =>
        map(fn f32 (int j) =>
              streamSeq(fn f32 (int kk, [f32, c] ac, f32 acc) =>
                          loop (acc) = for k < c do
                            if ac[k] > 0f32 then acc + ac[k] * B[kk + k, j] else acc - B[k + kk, j]
                          in acc
                       , a, 0f32)
           , iota(q))
     , A)
