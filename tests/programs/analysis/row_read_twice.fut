-- A is read by rows (per thread) and by columns (coalesced in place): a
-- transposition would make the column reads a row apart, so it is refused.
-- (The loop stops short of the rows' end, so it stays a loop: one to `n`
-- would be read as a stream of the row and the column, as loop_matvec.)
-- transpose: A no also read at
fun [f32, n] main([[f32, n], n] A) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for k < n - 1 do acc + A[i, k] - A[k, i] in acc
     , iota(n))
