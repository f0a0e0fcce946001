-- Running values that read each other, before each point (`j < i`): the balance before it, the highest
-- balance reached before it (its terms read the balance's new value), and the sum of the balances before it
-- (its terms read the balance's old value).
fun ([f64, n], [f64, n], [f64, n]) main([f64, n] x, f64 start) =
  map(fn (f64, f64, f64) (int i) =>
        loop (bal = start, top = start, area = 0f64) = for j < n do
          if j < i then
            let next = bal + x[j] in
            (next, max(top, next), area + bal)
          else (bal, top, area)
        in (bal, top, area)
     , iota(n))
