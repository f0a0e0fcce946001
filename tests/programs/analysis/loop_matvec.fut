-- A mat-vec written with a plain loop over each thread's row: the loop
-- walks `row` and `x` along its index over their whole length, so it is
-- read as a stream of both and gets matvec's plan: x shared by the block,
-- the threads' rows staged to coalesce.
-- (--keep-loops keeps the loop, and nothing is staged.)
-- block: 0
-- stream: 12:9 tiled 1-D
-- input: 12:9 x_c invariant=0 shared
-- input: 12:9 row_c invariant= shared
fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] row) =>
        loop (acc = 0f32) = for k < m do acc + row[k] * x[k] in acc,
      A)
