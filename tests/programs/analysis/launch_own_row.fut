-- A thread's own row p of length d known only at launch, read in a loop
-- inside a stream over w that every thread shares: the bound stages p
-- beside w (p read in place a row apart costs more than w's tile saves).
-- stream: 8:9 tiled 1-D
-- input: 8:9 wc invariant=0 shared
fun [f32, n] main([[f32, d], n] P, [f32, k] w) =
  map(fn f32 ([f32, d] p) =>
        streamSeq(fn f32 (int kk, [f32, c] wc, f32 acc) =>
                    loop (acc) = for j < c do
                      let v = loop (s = 0f32) = for f < d do s + p[f] * wc[j] in s
                      in acc + v
                    in acc
                 , w, 0f32)
     , P)
