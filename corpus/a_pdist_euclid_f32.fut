-- Pairwise Euclidean distances D[i, j] = ||x_i - y_j|| between two point sets
-- of dimension d; the squared difference is streamed over both rows.
fun [[f32, m], n] main([[f32, d], n] X, [[f32, d], m] Y) =
  map(fn [f32, m] ([f32, d] x) =>
        map(fn f32 ([f32, d] y) =>
              sqrt(streamSeq(fn f32 (int k0, [f32, c] xc, [f32, c] yc, f32 acc) =>
                               loop (acc) = for k < c do
                                 let t = xc[k] - yc[k] in acc + t * t
                               in acc,
                             x, y, 0f32)),
            Y),
      X)
