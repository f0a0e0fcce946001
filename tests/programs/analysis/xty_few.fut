-- A product with few outputs and a long reduction, X^T Y for tall X and Y:
-- with fewer points than 32 an SM, one thread a point would leave the GPU
-- idle, so each point's reduction is split among threads; 32 points along
-- j side by side a block, X's element the same for the warp (one read),
-- Y's consecutive (one run).
-- rows: 2
-- columns: yes
-- reduction: 12:15 split +
fun [[f32, q], p] main([[f32, p], n] X, [[f32, q], n] Y) =
  map(fn [f32, q] (int i) =>
        map(fn f32 (int j) =>
              loop (acc = 0f32) = for r < n do acc + X[r, i] * Y[r, j] in acc,
            iota(q)),
      iota(p))
