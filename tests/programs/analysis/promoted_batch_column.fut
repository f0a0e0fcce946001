-- A batch of products C[b] = A[b] B[b] that reads column j of B[b] by
-- index, `B[b, kk + t, j]`: the read walks the stream's position in the
-- index before the last of a 3-D array, so it becomes stream input B_c, a
-- row of B with its last two axes swapped (a view, no copy), staged beside
-- the row of A as in the 2-D product.
-- block: 2,1
-- stream: 14:21 tiled 2-D
-- input: 14:21 ac invariant=2 shared
-- input: 14:21 B_c invariant=1 shared
fun [[[f32, q], n], nb] main([[[f32, p], n], nb] A, [[[f32, q], p], nb] B) =
  map(fn [[f32, q], n] (int b) =>
        map(fn [f32, q] (int i) =>
              map(fn f32 (int j) =>
                    streamSeq(fn f32 (int kk, [f32, c] ac, f32 acc) =>
                                loop (acc) = for t < c do acc + ac[t] * B[b, kk + t, j] in acc
                             , A[b, i], 0f32)
                 , iota(q))
           , iota(n))
     , iota(nb))
