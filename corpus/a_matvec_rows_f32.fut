-- y = A x: one point per row of A; the dot product of the row with x is streamed.
fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] row) =>
        streamSeq(fn f32 (int kk, [f32, c] a, [f32, c] xc, f32 acc) =>
                    loop (acc) = for k < c do acc + a[k] * xc[k] in acc,
                  row, x, 0f32),
      A)
