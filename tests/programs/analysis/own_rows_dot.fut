-- The dot product of each pair of rows (x, s), the rows' length known only
-- at launch: a loop over two rows each thread reads alone, read as a
-- stream and staged to coalesce. Its scalar-copy version copies two 16 x 64
-- tiles a chunk, 64 steps a thread each: unrolled whole together they held
-- 255 registers and spilled; they share the steps unrolled at once.
-- stream: 11:9 tiled 1-D
-- input: 11:9 x_c invariant= shared
-- input: 11:9 s_c invariant= shared
fun [f32, n] main([[f32, m], n] X, [[f32, m], n] S) =
  map(fn f32 ([f32, m] x, [f32, m] s) =>
        loop (acc = 0f32) = for i < m do acc + s[i] * x[i] in acc
     , zip(X, S))
