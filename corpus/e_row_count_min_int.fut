-- Per row of int readings, how many so far reached the threshold t and the lowest so far, one loop over the whole row that keeps both accumulators where i < j.
fun ([[int, m], n], [[int, m], n]) main([[int, m], n] R, int t) =
  map(fn ([int, m], [int, m]) ([int, m] r) =>
        map(fn (int, int) (int i) =>
              loop (cnt = 0, lo = 2147483647) = for j < m do
                if i < j then (cnt, lo)
                else (if r[j] >= t then cnt + 1 else cnt, min(lo, r[j]))
              in (cnt, lo),
            iota(m)),
      R)
