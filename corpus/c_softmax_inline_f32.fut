-- Softmax over the rows of an n x m matrix, written the naive way: every
-- output element streams over its own row twice, once for the row maximum
-- and once for the sum of exponentials, before normalising itself.
fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (f32 x) =>
              let mx = streamSeq(fn f32 (int kk, [f32, c] xc, f32 best) =>
                                   loop (best) = for k < c do max(best, xc[k]) in best,
                                 row, -3.4028235e38) in
              let s = streamSeq(fn f32 (int kk, [f32, c2] xc, f32 acc) =>
                                  loop (acc) = for k < c2 do acc + exp(xc[k] - mx) in acc,
                                row, 0f32) in
              exp(x - mx) / s,
            row),
      X)
