-- error: 7:25: accumulator `acc` is declared f16 but starts as `0`, which is int
-- hint: write `0f16`
fun [f16, n] main([[f16, m], n] A) =
  map(fn f16 ([f16, m] row) =>
        streamSeq(fn f16 (int kk, [f16, c] rc, f16 acc) =>
                    loop (acc) = for k < c do acc + rc[k] in acc
                 , row, 0)
     , A)
