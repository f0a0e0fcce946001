-- Depthwise 1-D convolution, 31 taps: each channel of X correlated with its
-- own filter, centred on the sample, samples past either end zero (tested
-- with an if). Its reads move with the point along the rows, the dimension
-- threadIdx.x walks: a window of 31 samples, staged with its halo.
fun [[f32, l], c] main([[f32, l], c] X, [[f32, 31], c] W) =
  map(fn [f32, l] (int ch) =>
        map(fn f32 (int i) =>
              loop (acc = 0f32) = for t < 31 do
                let j = i + t - 15 in
                if j >= 0 && j < l then acc + W[ch, t] * X[ch, j] else acc
              in acc,
            iota(l)),
      iota(c))
