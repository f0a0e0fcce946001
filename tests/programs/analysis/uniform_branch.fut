-- A branch on a scalar of main is uniform across every block: safe.
-- block: 0
-- stream: 8:14 tiled 1-D
-- input: 8:14 yc invariant=0 shared
fun [f32, n] main(int mode, [f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        if mode > 0
        then streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) =>
                         loop (acc) = for k < c do acc + x * yc[k] in acc
                      , ys, 0f32)
        else x
     , xs)
