-- Per row: what remains after each position (an exclusive suffix, the carried values kept where `j <= i`)
-- and the lowest reading from the position on (`i <= j0 + j` in a second stream).
fun ([[i64, m], r], [[int, m], r]) main([[int, m], r] R) =
  map(fn ([i64, m], [int, m]) ([int, m] row) =>
        map(fn (i64, int) (int i) =>
              let rest = loop (s = 0i64) = for j < m do
                  if j <= i then s else s + i64(row[j])
                in s in
              let lo = streamSeq(fn int (int j0, [int, c] rc, int lo) =>
                                   loop (lo) = for j < c do
                                     if i <= j0 + j then min(lo, rc[j]) else lo
                                   in lo
                                , row, 2147483647) in
              (rest, lo)
           , iota(m))
     , R)
