-- Integer reductions through a stream: a 32-bit sum and a 64-bit maximum
-- of each row, and a loop that is not a reduction (its carried value is
-- read by a let): the row's threads split the first, not the second.
-- rows: 1
-- reduction: 10:29 split +,max
-- reduction: 12:17 not a `let` in its body reads the carried value `h`
fun [i64, n] main([[int, m], n] A) =
  map(fn i64 ([int, m] r) =>
        let (s, big) = streamSeq(fn (int, i64) (int kk, [int, c] rc, int s, i64 big) =>
                            loop (s, big) = for k < c do (s + rc[k], max(big, i64(rc[k]) * 3i64)) in (s, big)
                         , r, 0, -7i64) in
        let h = loop (h = 1) = for k < 8 do let t = h * 31 + r[k % m] in t % 1000 in h in
        i64(s) + big + i64(h)
     , A)
