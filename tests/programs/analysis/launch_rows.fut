-- The nearest of m weighted references for each of n points, d features
-- each, d a size known only at launch: the references' rows (a chunk of
-- rows every point reads) and each point's own row are staged in lines of
-- a bounded length, and the launch runs that kernel where d is no longer.
-- stream: 10:9 tiled 1-D
-- input: 10:9 qc invariant=0 shared
-- input: 10:9 wc invariant=0 shared
fun [f32, n] main([[f32, d], n] P, [[f32, d], m] Q, [f32, m] w) =
  map(fn f32 ([f32, d] p) =>
        streamSeq(fn f32 (int kk, [[f32, d], c] qc, [f32, c] wc, f32 best) =>
                    loop (best) = for j < c do
                      let dist = loop (s = 0f32) = for f < d do
                                   let t = p[f] - qc[j, f] in s + t * t
                                 in s
                      in min(best, wc[j] * dist)
                    in best
                 , Q, w, 3.0e38f32)
     , P)
