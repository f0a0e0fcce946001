-- CSR-like sparse dot products with integer data: row r starts at rowptr[r]
-- in the flat index arrays and has rowlen[r] entries, capped at a fixed
-- maximum degree of 48; each entry pairs a[ia[p]] with b[ib[p]]. i64 sums.
fun [i64, nr] main([int, nr] rowptr, [int, nr] rowlen,
                   [int, nnz] ia, [int, nnz] ib, [int, na] a, [int, na] b) =
  map(fn i64 (int start, int len) =>
        let l = min(len, 48) in
        loop (s = 0i64) = for p < l do
          let q = start + p in
          s + i64(a[ia[q]]) * i64(b[ib[q]])
        in s
     , zip(rowptr, rowlen))
