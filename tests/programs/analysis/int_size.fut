-- The output's size is an int parameter of main: n points, none of them read
-- from an input array, each summing a kernel over the samples (shared).
-- block: 0
-- stream: 9:9 tiled 1-D
-- input: 9:9 xc invariant=0 shared
-- reason: 9:9 xc one copy serves 256 threads
fun [f32, n] main(int n, f32 h, [f32, k] xs) =
  map(fn f32 (int i) =>
        streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) =>
                    loop (acc) = for t < c do
                      let d = (f32(i) * h - xc[t]) in
                      acc + 1f32 / (1f32 + d * d)
                    in acc
                 , xs, 0f32)
     , iota(n))
