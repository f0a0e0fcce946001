-- Layer normalisation of each row without the affine part: the row's mean,
-- then its variance about the mean, then every element normalised. The
-- statistics are lets between the two maps: computed once a row, each by
-- the row's threads together.
fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] row) =>
        let total = loop (acc = 0f32) = for k < m do acc + row[k] in acc in
        let mean = total / f32(m) in
        let sq = loop (acc = 0f32) = for k < m do acc + (row[k] - mean) * (row[k] - mean) in acc in
        let inv = 1f32 / sqrt(sq / f32(m) + 1e-5f32) in
        map(fn f32 (f32 x) => (x - mean) * inv, row)
     , X)
