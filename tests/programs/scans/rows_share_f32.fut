-- Each reading's running sum along its row as a share of the row's total: a scan beside a total (the total
-- updated alike on both sides of the position's test).
fun [[f32, m], n] main([[f32, m], n] W) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (int i) =>
              let (s, t) = loop (s = 0f32, t = 0f32) = for j < m do
                             if j <= i then (s + row[j], t + row[j]) else (s, t + row[j])
                           in (s, t)
              in s / t,
            iota(m)),
      W)
