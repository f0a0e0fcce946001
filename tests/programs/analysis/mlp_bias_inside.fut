-- The bias added inside the hidden value: the pairs' value then reads a
-- vector zipped with the rows (b1's chunk) besides the row, which the
-- pairs' kernel does not walk: no fission.
-- fission: no `z` reads `bc`
fun [f32, n] main([[f32, d], n] X, [[f32, d], h] W1, [f32, h] b1, [f32, h] w2) =
  map(fn f32 ([f32, d] x) =>
        streamSeq(fn f32 (int k0, [[f32, d], c] wc, [f32, c] bc, [f32, c] oc, f32 acc) =>
                    loop (acc) = for j < c do
                      let z = loop (s = bc[j]) = for k < d do s + wc[j, k] * x[k] in s in
                      acc + oc[j] * max(z, 0f32)
                    in acc,
                  W1, b1, w2, 0f32),
      X)
