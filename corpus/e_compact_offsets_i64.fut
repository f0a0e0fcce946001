-- Where each item's output begins and ends in a compacted buffer: the exclusive prefix sum of the int counts (positions kk + k < i), widened to i64 in a streamSeq, plus the item's own count.
fun ([i64, n], [i64, n]) main([int, n] counts) =
  map(fn (i64, i64) (int i, int cnt) =>
        let start =
          streamSeq(fn i64 (int kk, [int, c] cc, i64 off) =>
                      loop (off) = for k < c do
                        if kk + k < i then off + i64(cc[k]) else off
                      in off,
                    counts, 0i64)
        in (start, start + i64(cnt)),
      zip(iota(n), counts))
