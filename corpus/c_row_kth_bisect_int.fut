-- k-th smallest value (k = m / 2, counting from 0) of each row of an int
-- matrix, by integer bisection: keep lo < answer <= hi with
-- #{x <= lo} <= k < #{x <= hi}; 30 halvings of (hi - lo) pin it exactly
-- for rows whose range is below 2^30.
fun [int, n] main([[int, m], n] M) =
  let k = m / 2 in
  map(fn int (int i) =>
        let lo0 = loop (a = M[i, 0]) = for j < m do min(a, M[i, j]) in a in
        let hi0 = loop (b = M[i, 0]) = for j < m do max(b, M[i, j]) in b in
        let (lo, hi) =
          loop (lo = lo0 - 1, hi = hi0) = for it < 30 do
            let mid = lo + (hi - lo) / 2 in
            let le = loop (c = 0) = for j < m do if M[i, j] <= mid then c + 1 else c in c in
            if le > k then (lo, mid) else (mid, hi)
          in (lo, hi)
        in hi,
      iota(n))
