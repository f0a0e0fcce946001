-- A batch of products whose B is read through the outer map's element:
-- `b[k, j]`, with `b` the map's element of main's B, walks column j of
-- b with the loop. It becomes stream input b_c, a row of b's transpose (the
-- map's element of B's view with its last two axes swapped), staged beside
-- the row of A, and the product is register-tiled as a 2-D one is.
-- block: 2,1
-- stream: 14:21 tiled 2-D
-- input: 14:21 arow_c invariant=2 shared
-- input: 14:21 b_c invariant=1 shared
fun [[[f32, m], n], nb] main([[[f32, p], n], nb] A, [[[f32, m], p], nb] B) =
  map(fn [[f32, m], n] ([[f32, p], n] a, [[f32, m], p] b) =>
        map(fn [f32, m] ([f32, p] arow) =>
              map(fn f32 (int j) =>
                    loop (acc = 0f32) = for k < p do acc + arow[k] * b[k, j] in acc,
                  iota(m)),
            a),
      A, B)
