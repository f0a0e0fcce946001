-- Inclusive prefix sums written as a fold per output: out[i] = sum_{j <= i} x[j],
-- int inputs accumulated in i64 (also the count of positive terms). Light body.
fun ([i64, n], [int, n]) main([int, n] x) =
  map(fn (i64, int) (int i) =>
        streamSeq(fn (i64, int) (int j0, [int, c] xc, i64 s, int pos) =>
                    loop (s, pos) = for j < c do
                      if j0 + j <= i
                      then (s + i64(xc[j]), if xc[j] > 0 then pos + 1 else pos)
                      else (s, pos)
                    in (s, pos)
                 , x, 0i64, 0)
     , iota(n))
