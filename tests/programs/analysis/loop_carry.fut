-- Loop variance is a fixpoint: `t` starts uniform, and picks up dimension 0
-- only through `u`, which is updated from `x` on the first iteration.
-- stream: 9:9 tiled 1-D
-- input: 9:9 yc invariant=0 shared
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        let w = loop (t = 0f32, u = 0f32) = for k < 3 do (u, x) in t in
        w +
        streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) =>
                    loop (acc) = for k < c do acc + yc[k] * x in acc
                 , ys, 0f32)
     , xs)
