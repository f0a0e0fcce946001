-- Each element centred by its row's mean, which a helper computes from the
-- row it is given: inlined, the helper binds its parameter to the row
-- (`let r = row`), and the mean, reading nothing of the element, still
-- moves to the row's lets (reading `row` itself there), its sum shared by
-- the row's threads.
-- rows: 1
-- reduction: 10:24 split +
fun f32 centred([f32, m] r, f32 x) =
  let mu = streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                       loop (acc) = for k < c do acc + rc[k] in acc, r, 0f32) / f32(m) in
  x - mu

fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] row) => map(fn f32 (f32 x) => centred(row, x), row), X)
