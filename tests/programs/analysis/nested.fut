-- Nested streams: the outer one goes over the thread's own row (staged so
-- that its reads coalesce), the inner one over ys, invariant to the kernel's dimension.
-- block: 0
-- stream: 10:9 tiled 1-D
-- reason: 10:9 rc varies with every dimension (0)
-- stream: 12:23 tiled 1-D
-- input: 12:23 yc invariant=0 shared
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
