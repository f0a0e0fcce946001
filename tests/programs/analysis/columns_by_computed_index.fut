-- A column of a transposed matrix picked by an index computed from the
-- point's own one (`4 * i % r`): any thread can compute another point's column,
-- so the block's copy stages them, each thread computing a point's column;
-- but neighbouring points' columns are 4 apart, not adjacent, so the copy
-- never moves neighbouring columns as one vector.
-- stream: 13:15 tiled 2-D
-- input: 13:15 uc invariant=1 shared
-- input: 13:15 vc invariant=0 shared
fun [[f32, q], m] main(int m, [[f32, r], n] T, [[f32, n], q] Bt) =
  let Tt = transpose(T) in
  map(fn [f32, q] (int i) =>
        map(fn f32 ([f32, n] v) =>
              streamSeq(fn f32 (int kk, [f32, c] uc, [f32, c] vc, f32 acc) =>
                          loop (acc) = for k < c do acc + uc[k] * vc[k] in acc
                       , Tt[4 * i % r], v, 0f32)
           , Bt)
     , iota(m))
