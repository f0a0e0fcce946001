-- The smallest int written as a literal: -2147483648 (its digits alone do not fit an int, so the checker and
-- the CUDA both take care), and i64's.
fun [i64, n] main([int, n] xs) =
  map(fn i64 (int x) => i64(x + -2147483648) + -9223372036854775808i64, xs)
