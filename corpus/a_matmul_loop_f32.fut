-- C = A B, the textbook way: two maps over iota and a plain loop over the inner dimension.
fun [[f32, m], n] main([[f32, p], n] A, [[f32, m], p] B) =
  map(fn [f32, m] (int i) =>
    map(fn f32 (int j) =>
      loop (s = 0f32) = for q < p do s + A[i, q] * B[q, j] in s,
    iota(m)),
  iota(n))
