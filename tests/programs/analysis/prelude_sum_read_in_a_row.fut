-- A weight vector's sum written before the maps and read by a let of the
-- outer map's body: it moves to the outer level's lets, first among them,
-- and the row's threads compute it once a row beside the row's own sum.
-- rows: 1
-- reduction: 8:11 split +
-- reduction: 11:17 split +
fun [[f32, m], n] main([[f32, m], n] X, [f32, k] w) =
  let s = loop (s = 0f32) = for j < k do s + w[j] in s in
  map(fn [f32, m] ([f32, m] row) =>
        let t = s * 2f32 in
        let r = loop (a = 0f32) = for j < m do a + row[j] in a in
        map(fn f32 (f32 x) => x * (t + r), row), X)
