-- error: 4:27: `*` needs operands of one type, got i64 and int
-- hint: write `2i64`
fun [i64, n] main([i64, n] xs) =
  map(fn i64 (i64 x) => x * 2, xs)
