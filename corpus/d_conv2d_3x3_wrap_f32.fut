-- 3x3 convolution (correlation, as in deep learning) of an image on a torus:
-- periodic boundaries, so the row above row 0 is row h-1 and so on.
--   out[y,x] = sum_{dy,dx<3} k[dy,dx] * img[(y+dy-1) mod h, (x+dx-1) mod w]
-- The + h / + w keep the operand of % non-negative.
fun [[f32, w], h] main([[f32, w], h] img, [[f32, 3], 3] k) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              loop (acc = 0f32) = for dy < 3 do
                let yy = (y + dy - 1 + h) % h in
                loop (acc) = for dx < 3 do
                  let xx = (x + dx - 1 + w) % w in
                  acc + k[dy, dx] * img[yy, xx]
                in acc
              in acc,
            iota(w)),
      iota(h))
