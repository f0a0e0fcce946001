-- A chunk of f32 rows of length d known only at launch beside each thread's
-- own f64 row: the block (narrowed for the f64 rows) copies both by
-- cp.async, 128 steps a thread for the bounded rows, unrolled 8 at a time
-- (all at once spilled).
-- stream: 10:9 tiled 1-D
-- input: 10:9 qc invariant=0 shared
-- input: 10:9 yc invariant= shared
fun [f64, n] main([[f64, m], n] Y, [[f32, d], m] Q) =
  map(fn f64 ([f64, m] y) =>
        streamSeq(fn f64 (int kk, [[f32, d], c] qc, [f64, c] yc, f64 acc) =>
                    loop (acc) = for j < c do
                      let v = loop (s = 0f32) = for f < d do s + qc[j, f] in s
                      in acc + f64(v) * yc[j]
                    in acc
                 , Q, y, 0f64)
     , Y)
