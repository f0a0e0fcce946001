-- error: 5:18: `map` inside the kernel body
-- hint: write this as a `streamSeq` (or a `loop`) over the array
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        let zs = map(fn f32 (f32 y) => x * y, ys) in
        zs[0]
     , xs)
