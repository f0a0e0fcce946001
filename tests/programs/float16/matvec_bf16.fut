-- A matrix-vector product of bf16 data accumulated in f32, the result
-- rounded to bf16 once: x is read by every row, so the block stages it once
-- for all its threads.
-- stream: 7:14 tiled 1-D
fun [bf16, n] main([[bf16, m], n] A, [bf16, m] x) =
  map(fn bf16 ([bf16, m] row) =>
        bf16(streamSeq(fn f32 (int kk, [bf16, c] rc, [bf16, c] xc, f32 acc) =>
                         loop (acc) = for j < c do acc + f32(rc[j]) * f32(xc[j]) in acc
                      , row, x, 0f32))
     , A)
