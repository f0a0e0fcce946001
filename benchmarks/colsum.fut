-- The sum of each column of a matrix, written as a map over the columns
-- with a loop down the rows. Consecutive columns' elements lie next to each
-- other, so a block holds 32 columns side by side and each column's 32
-- threads walk every 32nd row, their shares combined in shared memory; with
-- fewer blocks of columns than SMs, several blocks share each column.
fun [f32, m] main([[f32, m], n] A) =
  map(fn f32 (int j) =>
        loop (s = 0f32) = for i < n do s + A[i, j] in s,
      iota(m))
