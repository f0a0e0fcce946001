-- 2-D convolution (correlation) of an image with a kh x kw filter, centred, the
-- image clamped at its borders. A loop walks the filter rows; a stream inside
-- it walks each filter row.
fun int clampi(int v, int hi) = min(max(v, 0), hi - 1)

fun [[f32, w], h] main([[f32, w], h] img, [[f32, kw], kh] F) =
  let ry = kh / 2 in
  let rx = kw / 2 in
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              loop (acc = 0f32) = for a < kh do
                let iy = clampi(y + a - ry, h) in
                streamSeq(fn f32 (int b0, [f32, c] frow, f32 s) =>
                            loop (s) = for b < c do
                              s + frow[b] * img[iy, clampi(x + b0 + b - rx, w)]
                            in s,
                          F[a], acc)
              in acc,
            iota(w)),
      iota(h))
