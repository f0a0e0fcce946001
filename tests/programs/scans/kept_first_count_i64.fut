-- The test written the other way round, the carried value kept in the `then` branch, and an element's own
-- condition joined by `&&` in a second loop: a running sum of i64 and a running count of positive elements.
fun ([i64, n], [int, n]) main([i64, n] x) =
  map(fn (i64, int) (int i) =>
        let s = streamSeq(fn i64 (int j0, [i64, c] xc, i64 s) =>
                            loop (s) = for j < c do
                              if j0 + j > i then s else s + xc[j]
                            in s
                         , x, 0i64) in
        let k = streamSeq(fn int (int j0, [i64, c] xc, int k) =>
                            loop (k) = for j < c do
                              if xc[j] > 0i64 && i >= j0 + j then k + 1 else k
                            in k
                         , x, 0) in
        (s, k)
     , iota(n))
