-- A prefix whose terms read the point's own position: not scanned.
fun [f32, n] main([f32, n] x) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for j < n do
          if j <= i then acc + x[j] * f32(i - j) else acc
        in acc
     , iota(n))
