-- Three map levels, the positions the middle one: for each batch and column, the sum of the elements after
-- each position (an exclusive suffix) and the largest from it on, in one stream over the batch's rows.
fun ([[[i64, m], n], b], [[[int, m], n], b]) main([[[int, m], n], b] X) =
  map(fn ([[i64, m], n], [[int, m], n]) ([[int, m], n] plane) =>
        map(fn ([i64, m], [int, m]) (int i) =>
              map(fn (i64, int) (int k) =>
                    let after = streamSeq(fn i64 (int j0, [[int, m], c] pc, i64 s) =>
                                           loop (s) = for j < c do
                                             if j0 + j > i then s + i64(pc[j, k]) else s
                                           in s
                                        , plane, 0i64) in
                    let hi = loop (h = -2147483647) = for j < n do
                               if j >= i then max(h, plane[j, k]) else h
                             in h in
                    (after, hi)
                 , iota(m))
           , iota(n))
     , X)
