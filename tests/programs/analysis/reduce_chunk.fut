-- A row's sums inside a loop that is not a reduction (its carried value is
-- halved), each over the chunk of an outer stream: split among the row's
-- threads, with no length the launch could test (a chunk's is known only
-- inside the kernel).
-- rows: 1
-- reduction: 13:50 split +
-- reduction: 11:21 not `acc` is not one operand
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) =>
                    loop (acc) = for t < 2 do
                      acc * 0.5f32 + streamSeq(fn f32 (int k2, [f32, c2] yc, f32 b) =>
                                                 loop (b) = for k < c2 do b + yc[k] * f32(t + 1) in b, xc, 0f32)
                    in acc
                 , r, 0f32)
     , A)
