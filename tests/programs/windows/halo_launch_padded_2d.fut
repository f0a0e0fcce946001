-- A 2-D correlation padded with zeros, its filter's extent known only at
-- launch: rows from kh / 2 above a point, columns from one place left of it
-- to kw - 2 right. The tile spans both, sized by the launch.
fun [[f32, w], h] main([[f32, w], h] img, [[f32, kw], kh] k) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              loop (acc = 0f32) = for a < kh do
                loop (acc) = for b < kw do
                  let yy = y + a - kh / 2 in
                  let xx = x + b - 1 in
                  if yy >= 0 && yy < h && xx >= 0 && xx < w then acc + k[a, b] * img[yy, xx] else acc
                in acc
              in acc,
            iota(w)),
      iota(h))
