-- Each thread sums its own row: nothing to share, but staged so that its reads coalesce.
-- stream: 7:9 tiled 1-D
-- input: 7:9 rc invariant= shared
-- reason: 7:9 rc varies with every dimension (0): each thread streams its own data
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                    loop (acc) = for k < c do acc + rc[k] in acc
                 , r, 0f32)
     , A)
