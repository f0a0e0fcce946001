-- error: 4:27: expected an expression, found `*`
-- A tab counts as one column, as in clang.
fun [f32, n] main([f32, n] xs) =
	map(fn f32 (f32 x) => x +* 1.0f32, xs)
