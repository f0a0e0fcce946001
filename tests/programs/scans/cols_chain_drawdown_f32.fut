-- Down each column, a chain of running values before each row (`j < i`): the column's running sum, its
-- running peak (from its new value) and the largest fall below that peak; and, up to each row, a count of
-- the rows whose sum so far is positive (its test reads the sum's new value).
fun ([[f32, m], n], [[int, m], n]) main([[f32, m], n] X) =
  map(fn ([f32, m], [int, m]) (int i) =>
        map(fn (f32, int) (int k) =>
              let (s, hi, fall) = loop (s = 0f32, hi = -1.0e30f32, fall = 0f32) = for j < n do
                                    if j < i then
                                      let s2 = s + X[j, k] in
                                      let h2 = max(hi, s2) in
                                      (s2, h2, max(fall, h2 - s2))
                                    else (s, hi, fall)
                                  in (s, hi, fall) in
              let (count, run) = streamSeq(fn (int, f32) (int j0, [[f32, m], c] xc, int count, f32 run) =>
                                   loop (count, run) = for j < c do
                                     if j0 + j <= i then
                                       let r2 = run + xc[j][k] in
                                       (if r2 > 0f32 then count + 1 else count, r2)
                                     else (count, run)
                                   in (count, run)
                                , X, 0, 0f32) in
              (fall + s * 0f32, count)
           , iota(m))
     , iota(n))
