-- The textbook product, two maps over iota and a loop over the inner
-- dimension: A[i, q] walks row i of A and B[q, j] column j of B with the
-- loop, so it is read as a stream of both, tiled in 2-D as mm.
-- (--keep-loops keeps the loop, and the kernel is untiled.)
-- block: 1,0
-- stream: 12:7 tiled 2-D
-- input: 12:7 A_c invariant=1 shared
-- input: 12:7 B_c invariant=0 shared
fun [[f32, m], n] main([[f32, p], n] A, [[f32, m], p] B) =
  map(fn [f32, m] (int i) =>
    map(fn f32 (int j) =>
      loop (s = 0f32) = for q < p do s + A[i, q] * B[q, j] in s,
    iota(m)),
  iota(n))
