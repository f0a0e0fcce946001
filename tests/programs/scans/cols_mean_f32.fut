-- Down each column (the positions are the outer map level, the columns the inner one): the running sum and
-- each element less the running mean, a plain loop reading X[j, k].
fun ([[f32, m], n], [[f32, m], n]) main([[f32, m], n] X) =
  map(fn ([f32, m], [f32, m]) (int i) =>
        map(fn (f32, f32) (int k) =>
              loop (s = 0f32) = for j < n do
                if j <= i then s + X[j, k] else s
              in (s, X[i, k] - s / f32(i + 1))
           , iota(m))
     , iota(n))
