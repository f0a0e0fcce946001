-- A prefix over a stream of another length than the map's: not scanned.
fun [f32, m] main([f32, n] x, [f32, m] y) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for j < n do
          if j <= i then acc + x[j] else acc
        in acc + y[i]
     , iota(m))
