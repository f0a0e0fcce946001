-- error: 7:28: accumulator `acc` is declared f32 but starts as `0`, which is int
-- hint: write `0f32`
fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] row) =>
        streamSeq(fn f32 (int kk, [f32, c] rc, [f32, c] xc, f32 acc) =>
                    loop (acc) = for k < c do acc + rc[k] * xc[k] in acc
                 , row, x, 0)
     , A)
