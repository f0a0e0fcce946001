-- Each row's sum (a loop over the row) scales, for every y, a sum over a
-- chunk of polynomial rows of length d known only at launch. The row sum is
-- a reduction the row's threads share: rows of any d keep that split, and a
-- bound on d (which would stage the polynomials) is not taken for it.
-- reduction: 8:13 split +
fun [[f32, b], a] main([[f32, m], a] A, [f32, b] ys, [[f32, d], k] Q) =
  map(fn [f32, b] ([f32, m] row) =>
    let s = loop (s = 0f32) = for i < m do s + row[i] in s in
    map(fn f32 (f32 y) =>
        streamSeq(fn f32 (int kk, [[f32, d], c] qc, f32 acc) =>
                    loop (acc) = for j < c do
                      let v = loop (t = 0f32) = for f < d do t * y + qc[j, f] in t
                      in acc + v * s
                    in acc
                 , Q, 0f32)
     , ys), A)
