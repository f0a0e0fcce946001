-- Nested streams: the outer one goes over the thread's own row, the inner
-- one over ys, invariant to the kernel's dimension. The block stays wide for
-- ys's tiles, so its 256 rows in chunks of 64 would not fit: the rows stay
-- in place (read once an outer step; the launch may transpose A) rather
-- than every chunk shrinking.
-- block: 0
-- stream: 13:9 untiled
-- reason: 13:9 rc would not fit beside the other tiles
-- stream: 15:23 tiled 1-D
-- input: 15:23 yc invariant=0 shared
fun [f32, n] main([[f32, m], n] A, [f32, p] ys) =
  map(fn f32 ([f32, m] r) =>
        streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                    loop (acc) = for k < c do
                      streamSeq(fn f32 (int kk2, [f32, c2] yc, f32 a2) =>
                                  loop (a2) = for t < c2 do a2 + rc[k] * yc[t] in a2
                               , ys, acc)
                    in acc
                 , r, 0f32)
     , A)
