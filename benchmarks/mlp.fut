-- One hidden layer a point, summed by output weights: out[p] = sum over h of
-- w2[h] * relu(W1[h] . X[p] + b1[h]). The stream zips the rows of W1 with
-- the bias and the output weights. The hidden value reads only a row of W1
-- and the point's row, so tiler computes it for every (point, row) pair
-- first, register-tiled as a product, and the fold then reads it beside b1
-- and w2 (fission).
fun [f32, n] main([[f32, d], n] X, [[f32, d], h] W1, [f32, h] b1, [f32, h] w2) =
  map(fn f32 ([f32, d] x) =>
        streamSeq(fn f32 (int k0, [[f32, d], c] wc, [f32, c] bc, [f32, c] oc, f32 acc) =>
                    loop (acc) = for j < c do
                      let z = loop (s = 0f32) = for k < d do s + wc[j, k] * x[k] in s in
                      acc + oc[j] * max(z + bc[j], 0f32)
                    in acc
                 , W1, b1, w2, 0f32)
     , X)
