-- error: 5:80: accumulators must be scalars; `acc` is (f32, f32)
-- hint: one accumulator a value: `f32 acc0, f32 acc1`
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] row) =>
        let (s, ss) = streamSeq(fn (f32, f32) (int kk, [f32, c] rc, (f32, f32) acc) =>
                    loop (acc) = for k < c do let (a, b) = acc in (a + rc[k], b + rc[k] * rc[k]) in acc
                 , row, (0f32, 0f32)) in
        ss / f32(m) - (s / f32(m)) * (s / f32(m))
     , A)
