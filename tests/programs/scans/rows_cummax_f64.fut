-- Per row: each element minus the running maximum of its row so far (`i >= j`), the maximum started from
-- the row's first element, and a running product started from 2.
fun ([[f64, m], r], [[f64, m], r]) main([[f64, m], r] X) =
  map(fn ([f64, m], [f64, m]) ([f64, m] row) =>
        map(fn (f64, f64) (int i) =>
              loop (hi = row[0], p = 2f64) = for j < m do
                if i >= j then (max(hi, row[j]), p * (1f64 + row[j] * 0.001f64)) else (hi, p)
              in (row[i] - hi, p)
           , iota(m))
     , X)
