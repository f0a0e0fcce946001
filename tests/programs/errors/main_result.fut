-- error: 3:5: main is declared to return [f32, m], but its map nest gives [f32, n]
-- main's result must have the map's size
fun [f32, m] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) => x, xs)
