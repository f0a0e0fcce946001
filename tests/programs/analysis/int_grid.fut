-- A grid of nx x ny points whose extents are int parameters of main, each
-- summing over the charges (invariant to both dims: one copy a 2-D block,
-- reused from registers across an 8 x 8 micro-tile). Its 64-bit version
-- once spilled 32 bytes to keep two blocks an SM (kir.Kernel.min_blocks).
-- block: 1,0
-- stream: 11:15 tiled 2-D
-- input: 11:15 qs invariant=0,1 shared
fun [[f32, nx], ny] main(int nx, int ny, [f32, k] qx, [f32, k] qy, [f32, k] q) =
  map(fn [f32, nx] (int j) =>
        map(fn f32 (int i) =>
              streamSeq(fn f32 (int kk, [f32, c] xs, [f32, c] ys, [f32, c] qs, f32 acc) =>
                          loop (acc) = for t < c do
                            let dx = f32(i) - xs[t] in
                            let dy = f32(j) - ys[t] in
                            acc + qs[t] / (dx * dx + dy * dy + 1f32)
                          in acc
                       , qx, qy, q, 0f32)
           , iota(nx))
     , iota(ny))
