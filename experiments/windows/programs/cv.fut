-- 2-D convolution with a 5 x 5 filter: each pixel streams the filter's rows,
-- five elements each. The rows are invariant to both dimensions, but staging
-- one costs two barriers for five loads that every thread of a warp makes at
-- the same address: the cost model leaves the stream in global memory.
fun [[f32, w], h] main([[f32, w], h] img, [[f32, 5], 5] filt) =
  map(fn [f32, w] (int i) =>
        map(fn f32 (int j) =>
              loop (acc = 0f32) = for r < 5 do
                streamSeq(fn f32 (int kk, [f32, c] fc, f32 a) =>
                            loop (a) = for k < c do
                              a + fc[k] * img[min(i + r, h - 1), min(j + kk + k, w - 1)]
                            in a
                         , filt[r], acc)
              in acc
           , iota(w))
     , iota(h))
