-- The total variation of each row: the sum of the steps between neighbours.
-- The loop stops one short of the row's end, so it is no stream (a stream
-- walks its arrays whole): each thread reads its own row in place, a row
-- apart along threadIdx.x, and the launch transposes A where the rows are
-- long and few.
-- transpose: A yes m >= 2048 and n <= 16896
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        loop (acc = 0f32) = for k < m - 1 do acc + abs(r[k + 1] - r[k]) in acc
     , A)
