-- The path length before each point: the sum of |x[j + 1] - x[j]| over j < i. The term at the last position
-- would read past the end: the exclusive scan never computes it, as the program never does.
fun [f32, n] main([f32, n] x) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for j < n do
          if j < i then acc + abs(x[j + 1] - x[j]) else acc
        in acc
     , iota(n))
