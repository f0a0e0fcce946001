-- error: 3:30: `&&` needs two bools, got int and int
fun [int, n] main([int, n] xs) =
  map(fn int (int x) => if x && x then x else 0, xs)
