-- A bilinear form x^T A y for each pair of rows (x, y): every thread loops
-- over i, streams row A[i] (the same for every thread) beside its own row
-- y, and weighs the sum by x[i]. A[i] is shared by the block; y is staged
-- to coalesce; x is read outside the stream (the launch may transpose X).
-- Its 64-bit version copies 16 rows of 64 by cp.async, 64 steps a thread:
-- unrolled in parts, since 64-bit addresses for all of them spilled.
-- stream: 13:19 tiled 1-D
-- input: 13:19 ar invariant=0 shared
-- input: 13:19 yr invariant= shared
fun [f32, n] main([[f32, m], m] A, [[f32, m], n] X, [[f32, m], n] Y) =
  map(fn f32 ([f32, m] x, [f32, m] y) =>
        loop (acc = 0f32) = for i < m do
          let s = streamSeq(fn f32 (int kk, [f32, c] ar, [f32, c] yr, f32 a) =>
                     loop (a) = for k < c do a + ar[k] * yr[k] in a
                   , A[i], y, 0f32)
          in acc + s * x[i]
        in acc
     , zip(X, Y))
