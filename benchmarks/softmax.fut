-- The softmax of each row, written the natural way: the row's maximum and
-- its sum of exponentials are lets of the outer map, and the inner map
-- normalises each element. Computed once a point, the two lets would cost
-- a pass over the row for every element; tiler runs them once a row, with
-- the row's threads sharing each reduction.
fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] row) =>
        let mx = streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) =>
                             loop (acc) = for k < c do max(acc, xc[k]) in acc
                          , row, row[0]) in
        let s = streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) =>
                            loop (acc) = for k < c do acc + exp(xc[k] - mx) in acc
                         , row, 0f32) in
        map(fn f32 (f32 x) => exp(x - mx) / s, row)
     , X)
