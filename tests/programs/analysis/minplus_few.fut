-- A min-plus product with few outputs and a long reduction (the
-- shortest paths of two hops through n middle nodes): a reduction by min,
-- whose identity in a split is NaN (fmin passes over it), split among
-- threads for few points, and split-K across the register-tiled kernel's
-- blocks where the reduction is long.
-- rows: 2
-- columns: yes
-- reduction: 12:15 split min
fun [[f32, q], p] main([[f32, n], p] A, [[f32, q], n] B) =
  map(fn [f32, q] ([f32, n] a) =>
        map(fn f32 (int j) =>
              loop (d = 1.0e30f32) = for k < n do min(d, a[k] + B[k, j]) in d,
            iota(q)),
      A)
