-- Exclusive column offsets of a count matrix (each bucket's start in its column) and how many earlier rows of the column are non-empty, a streamSeq over the rows keeping both where kk + j < i, int.
fun ([[int, m], n], [[int, m], n]) main([[int, m], n] C) =
  map(fn ([int, m], [int, m]) (int i) =>
        map(fn (int, int) (int k) =>
              streamSeq(fn (int, int) (int kk, [[int, m], c] cc, int off, int used) =>
                          loop (off, used) = for j < c do
                            if kk + j < i
                            then (off + cc[j, k], if cc[j, k] > 0 then used + 1 else used)
                            else (off, used)
                          in (off, used)
                       , C, 0, 0),
            iota(m)),
      iota(n))
