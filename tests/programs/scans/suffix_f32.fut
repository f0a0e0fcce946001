-- A suffix sum (`j >= i`): not scanned (a suffix is not built).
fun [f32, n] main([f32, n] x) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for j < n do
          if j >= i then acc + x[j] else acc
        in acc
     , iota(n))
