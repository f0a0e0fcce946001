-- A row's minimum, then a 2-D slab of the row's own (two inner map levels)
-- shifted by it: the outer inner level is a plain loop of each of the row's
-- threads, the innermost is shared among them.
-- rows: 1
-- reduction: 8:18 split min
fun [[[f32, q], p], n] main([[f32, m], n] A, [[[f32, q], p], n] B) =
  map(fn [[f32, q], p] ([f32, m] r, [[f32, q], p] slab) =>
        let lo = loop (lo = 1e30f32) = for k < m do min(lo, r[k]) in lo in
        map(fn [f32, q] ([f32, q] line) => map(fn f32 (f32 x) => x - lo, line), slab)
     , A, B)
