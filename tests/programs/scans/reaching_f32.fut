-- A prefix one past the point's own (`j <= i + 1`): not scanned.
fun [f32, n] main([f32, n] x) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for j < n do
          if j <= i + 1 then acc + x[j] else acc
        in acc
     , iota(n))
