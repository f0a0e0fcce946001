-- A test of the element nested inside the position's test (not joined by `&&`): how many positive elements
-- up to each point, and their sum; and a chain under the same nesting (the running maximum of that sum).
fun ([i64, n], [f32, n]) main([f32, n] x) =
  map(fn (i64, f32) (int i) =>
        let (c, s) = loop (c = 0i64, s = 0f32) = for j < n do
                       if j <= i then
                         if x[j] > 0f32 then (c + 1i64, s + x[j]) else (c, s)
                       else (c, s)
                     in (c, s) in
        let (t, hi) = loop (t = 0f32, hi = -1.0e30f32) = for j < n do
                        if i >= j then
                          if x[j] > -0.5f32 then let t2 = t + x[j] in (t2, max(hi, t2)) else (t, hi)
                        else (t, hi)
                      in (t, hi) in
        (c, s + hi)
     , iota(n))
