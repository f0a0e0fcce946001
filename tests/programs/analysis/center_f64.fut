-- Rows of f64 centred on their mean: the mean is a let between the two
-- maps, computed once a row by the row's threads, then each of the row's
-- threads takes every T-th element of the inner map.
-- rows: 1
-- reduction: 8:21 split +
fun [[f64, m], n] main([[f64, m], n] X) =
  map(fn [f64, m] ([f64, m] row) =>
        let total = loop (acc = 0f64) = for k < m do acc + row[k] in acc in
        let mean = total / f64(m) in
        map(fn f64 (f64 x) => x - mean, row)
     , X)
