-- A chunk read only by a let whose value is never used loads nothing: it is
-- not staged (no copy, no buffer).
-- stream: 9:9 tiled 1-D, partial
-- input: 9:9 a invariant=0 shared
-- input: 9:9 b invariant=0 global
-- reason: 9:9 b its chunk is never read
fun [f32, n] main([f32, n] xs, [f32, m] ys, [f32, m] zs) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (int kk, [f32, c] a, [f32, c] b, f32 acc) =>
                    let unused = b[0] in
                    loop (acc) = for k < c do acc + a[k] * x in acc
                 , ys, zs, 0f32)
     , xs)
