-- Depthwise 1-D convolution (as in a separable/MobileNet-style block):
-- every channel ch of X is correlated with its own 7-tap filter W[ch, 0..6],
-- centred on the output sample:
--   Y[ch, i] = sum_{t<7} W[ch, t] * X[ch, i + t - 3]
-- Samples outside [0, l) are zero ('same' zero padding), tested with an if.
fun [[f32, l], c] main([[f32, l], c] X, [[f32, 7], c] W) =
  map(fn [f32, l] (int ch) =>
        map(fn f32 (int i) =>
              loop (acc = 0f32) = for t < 7 do
                let j = i + t - 3 in
                if j >= 0 && j < l then acc + W[ch, t] * X[ch, j] else acc
              in acc,
            iota(l)),
      iota(c))
