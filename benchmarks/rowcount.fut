-- How many elements of each row lie below a quarter, written as a loop
-- whose `if` adds one or keeps the count: a reduction by its algebra (a
-- path that keeps the count adds nothing), so a row's threads share it as
-- they would a sum.
fun [int, n] main([[f32, m], n] A) =
  map(fn int ([f32, m] r) =>
        loop (c = 0) = for k < m do if r[k] < 0.25f32 then c + 1 else c in c,
      A)
