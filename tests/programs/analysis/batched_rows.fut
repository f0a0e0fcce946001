-- A batch of matrices; each row's sum scales the row's elements in a third
-- map level. The rows are two map levels (b, i), along the grid's y and x;
-- the inner level's points are shared by the row's threads.
-- rows: 2
-- reduction: 10:25 split +
fun [[[f32, m], n], b] main([[[f32, m], n], b] X) =
  map(fn [[f32, m], n] ([[f32, m], n] mat) =>
        map(fn [f32, m] ([f32, m] row) =>
              let s = streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                        loop (acc) = for k < c do acc + rc[k] * rc[k] in acc
                     , row, 0f32) in
              map(fn f32 (f32 x) => x / (1f32 + s), row)
           , mat)
     , X)
