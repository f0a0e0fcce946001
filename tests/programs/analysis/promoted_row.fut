-- A mat-vec written with indices: the row `A[i, kk + k]` and the vector
-- `x[kk + k]` both walk the stream's position. They become stream inputs
-- A_c (row i of A) and x_c (x itself); x is invariant to the one
-- dimension, so it is staged.
-- block: 0
-- stream: 11:9 tiled 1-D
-- input: 11:9 x_c invariant=0 shared
fun [f32, m] main([[f32, n], m] A, [f32, n] x, [f32, n] w) =
  map(fn f32 (int i) =>
        let s = 0f32 in
        streamSeq(fn f32 (int kk, [f32, c] wc, f32 acc) =>
                    loop (acc) = for k < c do acc + wc[k] * A[i, kk + k] * x[kk + k]
                    in acc
                 , w, s)
     , iota(m))
