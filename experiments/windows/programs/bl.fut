-- The vertical pass of a separable 15-tap blur: each pixel is the weighted
-- sum of the 15 pixels of its column centred on it, rows past the top or
-- the bottom clamped to the edge. The weights are streamed. Its reads move
-- with the point along the rows: a window of 15 rows.
fun [[f32, w], h] main([[f32, w], h] img, [f32, 15] wts) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              streamSeq(fn f32 (int kk, [f32, c] wc, f32 acc) =>
                          loop (acc) = for k < c do
                            acc + wc[k] * img[min(max(y + kk + k - 7, 0), h - 1), x]
                          in acc,
                        wts, 0f32),
            iota(w)),
      iota(h))
