-- Per row, the running mean of the entries so far (their sum over their count) and each entry relative to the running maximum, one loop over the whole row with if j <= i.
fun ([[f32, m], n], [[f32, m], n]) main([[f32, m], n] X) =
  map(fn ([f32, m], [f32, m]) ([f32, m] r) =>
        map(fn (f32, f32) (int i, f32 x) =>
              loop (s = 0f32, cnt = 0, hi = -3.4028235e38) = for j < m do
                if j <= i then (s + r[j], cnt + 1, max(hi, r[j])) else (s, cnt, hi)
              in (s / f32(cnt), x / hi),
            zip(iota(m), r)),
      X)
