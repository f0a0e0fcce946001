-- An exclusive prefix sum written as a plain loop (`j < i`): each point's sum of the elements before it.
fun [f32, n] main([f32, n] x) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for j < n do
          if j < i then acc + x[j] else acc
        in acc
     , iota(n))
