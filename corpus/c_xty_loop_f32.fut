-- C = X^T Y for tall-skinny X (N x p) and Y (N x q): a point per (i, j)
-- of the small result, each looping over all N rows.
fun [[f32, q], p] main([[f32, p], N] X, [[f32, q], N] Y) =
  map(fn [f32, q] (int i) =>
        map(fn f32 (int j) =>
              loop (acc = 0f32) = for r < N do acc + X[r, i] * Y[r, j] in acc,
            iota(q)),
      iota(p))
