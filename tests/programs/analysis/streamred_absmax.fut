-- Each row's element of the largest magnitude (of two as large, the
-- positive one) and its count of positive elements, one streamRed carrying
-- both: the update of the first reads it in a test, so the pair is split
-- by the program's combine, which a helper spells.
-- rows: 1
-- reduction: 14:21 split the streamRed's combine,the streamRed's combine
fun bool larger(f32 a, f32 b) = abs(a) < abs(b) || (abs(a) == abs(b) && a < b)

fun ([f32, n], [int, n]) main([[f32, m], n] A) =
  map(fn (f32, int) ([f32, m] r) =>
        streamRed(fn (f32, int) (f32 v1, int p1, f32 v2, int p2) =>
                    (if larger(v1, v2) then v2 else v1, p1 + p2),
                  fn (f32, int) (int kk, [f32, c] xs, f32 v, int p) =>
                    loop (v, p) = for k < c do
                      (if larger(v, xs[k]) then xs[k] else v, if xs[k] > 0f32 then p + 1 else p)
                    in (v, p),
                  r, 0f32, 0),
      A)
