-- error: 3:60: integer literal 3000000000 does not fit in int
-- hint: use the suffix i64
fun [int, n] main([int, n] xs) = map(fn int (int x) => x + 3000000000, xs)
