-- Direct Coulomb summation: every point of a 2-D grid sums over all atoms.
-- The atoms are invariant to both dimensions: staged once per 2-D block.
-- block: 1,0
-- stream: 11:15 tiled 2-D
-- input: 11:15 ax invariant=0,1 shared
-- input: 11:15 aq invariant=0,1 shared
-- reason: 11:15 aq one copy serves 1024 threads
fun [[f32, w], h] main([f32, w] gx, [f32, h] gy, [f32, na] atomx, [f32, na] atomy, [f32, na] atomq) =
  map(fn [f32, w] (f32 y) =>
        map(fn f32 (f32 x) =>
              streamSeq(fn f32 (int kk, [f32, c] ax, [f32, c] ay, [f32, c] aq, f32 pot) =>
                          loop (pot) = for a < c do
                            let dx = x - ax[a] in
                            let dy = y - ay[a] in
                            pot + aq[a] * rsqrt(dx * dx + dy * dy + 0.01f32)
                          in pot
                       , atomx, atomy, atomq, 0f32)
           , gx)
     , gy)
