-- Each row of C is a polynomial's coefficients (highest first, d of them,
-- d known only at launch); every x sums all m polynomials at x. The chunk
-- of rows is shared by every thread and staged in lines of a bounded length.
-- stream: 8:9 tiled 1-D
-- input: 8:9 cc invariant=0 shared
fun [f32, n] main([f32, n] xs, [[f32, d], m] C) =
  map(fn f32 (f32 x) =>
        streamSeq(fn f32 (int kk, [[f32, d], c] cc, f32 acc) =>
                    loop (acc) = for j < c do
                      let v = loop (s = 0f32) = for f < d do s * x + cc[j, f] in s
                      in acc + v
                    in acc
                 , C, 0f32)
     , xs)
