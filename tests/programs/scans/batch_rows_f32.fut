-- Three map levels (the rows on grid x and the batches on z): each row of each batch's running sum, and each element less
-- the running mean.
fun ([[[f32, m], r], b], [[[f32, m], r], b]) main([[[f32, m], r], b] X) =
  map(fn ([[f32, m], r], [[f32, m], r]) ([[f32, m], r] plane) =>
        map(fn ([f32, m], [f32, m]) ([f32, m] row) =>
              map(fn (f32, f32) (int i) =>
                    loop (s = 0f32) = for j < m do
                      if j <= i then s + row[j] else s
                    in (s, row[i] - s / f32(i + 1))
                 , iota(m))
           , plane)
     , X)
