-- A row picked by an index that a loop computes is not one the copy can
-- compute for the block's other points: the row stays a read in place.
-- stream: 11:15 tiled 2-D, partial
-- input: 11:15 uc invariant=1 global
-- reason: 11:15 uc through data
fun [[f32, q], m] main([int, m] ids, [[f32, n], r] A, [[f32, n], q] Bt) =
  map(fn [f32, q] (int i) =>
        let p = loop (p = ids[i]) = for t < 3 do (p * 7 + t) % r in p in
        map(fn f32 ([f32, n] v) =>
              let u = A[p] in
              streamSeq(fn f32 (int kk, [f32, c] uc, [f32, c] vc, f32 acc) =>
                          loop (acc) = for k < c do acc + uc[k] * vc[k] in acc
                       , u, v, 0f32)
           , Bt)
     , iota(m))
