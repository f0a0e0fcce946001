-- Every element of a tall matrix scaled by a sum over a weight vector the
-- whole grid shares. The rows' dimension walks grid y, which holds at most
-- 65,535 blocks: with more rows, a block loops over its rows' tiles a grid
-- apart, so any row count the sizes allow launches.
-- stream: 10:15 tiled 2-D
-- input: 10:15 wc invariant=0,1 shared
fun [[f32, m], c] main([[f32, m], c] A, [f32, k] w) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (f32 x) =>
              streamSeq(fn f32 (int kk, [f32, ch] wc, f32 acc) =>
                          loop (acc) = for j < ch do acc + wc[j] * x in acc
                       , w, 0f32)
           , row)
     , A)
