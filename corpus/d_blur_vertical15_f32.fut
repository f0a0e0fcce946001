-- Vertical pass of a separable 15-tap blur (e.g. a Gaussian): each output
-- pixel is a weighted sum of the 15 pixels of its column centred on it.
-- Rows above the top or below the bottom are clamped to the edge row.
-- The weights are streamed; kk + k is the tap's position in the filter.
fun [[f32, w], h] main([[f32, w], h] img, [f32, 15] wts) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              streamSeq(fn f32 (int kk, [f32, c] wc, f32 acc) =>
                          loop (acc) = for k < c do
                            let yy = min(max(y + kk + k - 7, 0), h - 1) in
                            acc + wc[k] * img[yy, x]
                          in acc,
                        wts, 0f32),
            iota(w)),
      iota(h))
