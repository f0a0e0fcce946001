-- The hidden layer of mlp_companions written as a loop over W1's rows: the
-- loop reads b1 and w2 at its index, so it is read as a stream over them,
-- and the hidden value reads W1 at the stream's position (`W1[kk + j, k]`):
-- the same fission, the rows of W1 walked by the pairs' kernel.
-- fission: yes the fold over the rows of W1
fun [f32, n] main([[f32, d], n] X, [[f32, d], h] W1, [f32, h] b1, [f32, h] w2) =
  map(fn f32 ([f32, d] x) =>
        loop (acc = 0f32) = for j < h do
          let z = loop (s = 0f32) = for k < d do s + W1[j, k] * x[k] in s in
          acc + w2[j] * max(z + b1[j], 0f32)
        in acc,
      X)
