-- Sparse (ELLPACK) times dense: row i of the sparse matrix keeps w slots of
-- column index and value; a negative column index marks a padding slot.
-- out[i, j] = sum over live slots k of vals[i, k] * B[cols[i, k], j].
fun [[f32, m], n] main([[int, w], n] cols, [[f32, w], n] vals, [[f32, m], p] B) =
  map(fn [f32, m] (int i) =>
        map(fn f32 (int j) =>
              loop (acc = 0f32) = for k < w do
                let col = cols[i, k] in
                if col >= 0 then acc + vals[i, k] * B[col, j] else acc
              in acc,
            iota(m)),
      iota(n))
