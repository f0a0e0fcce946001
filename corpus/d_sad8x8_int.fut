-- Block matching for motion estimation: the sum of absolute differences
-- between an 8x8 template and every 8x8 window of an integer image.
-- Only windows wholly inside the image are scored (no edge handling):
-- the output has (h - 7) x (w - 7) entries, oh x ow.
fun [[int, ow], oh] main(int oh, int ow, [[int, w], h] img, [[int, 8], 8] tpl) =
  map(fn [int, ow] (int i) =>
        map(fn int (int j) =>
              loop (sad = 0) = for u < 8 do
                loop (sad) = for v < 8 do
                  sad + abs(img[i + u, j + v] - tpl[u, v])
                in sad
              in sad,
            iota(ow)),
      iota(oh))
