-- Per-row median by bisection on the value: start from [row min, row max],
-- then 30 times count the elements below the midpoint and keep the half
-- where the count crosses m / 2. Returns the final interval's midpoint,
-- which brackets the sorted row's element of rank m / 2.
fun int below([f32, len] v, f32 thr) =
  streamSeq(fn int (int o, [f32, cs] vc, int acc) =>
              loop (acc) = for t < cs do if vc[t] < thr then acc + 1 else acc in acc,
            v, 0)

fun [f32, n] main([[f32, m], n] X) =
  let half = m / 2 in
  map(fn f32 ([f32, m] row) =>
        let (lo0, hi0) =
          loop (lo = row[0], hi = row[0]) = for k < m do
            (min(lo, row[k]), max(hi, row[k]))
          in (lo, hi) in
        let (lo, hi) =
          loop (lo = lo0, hi = hi0) = for step < 30 do
            let mid = (lo + hi) * 0.5f32 in
            if below(row, mid) <= half then (mid, hi) else (lo, mid)
          in (lo, hi)
        in (lo + hi) * 0.5f32,
      X)
