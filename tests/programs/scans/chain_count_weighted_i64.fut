-- Exact running values in integers: how many positive elements up to each point, and the sum of each
-- positive element weighted by its rank among them (the term reads the count's new value).
fun ([i64, n], [i64, n]) main([int, n] x) =
  map(fn (i64, i64) (int i) =>
        loop (c = 0i64, w = 0i64) = for j < n do
          if i >= j && x[j] > 0 then
            let c2 = c + 1i64 in
            (c2, w + c2 * i64(x[j]))
          else (c, w)
        in (c, w)
     , iota(n))
