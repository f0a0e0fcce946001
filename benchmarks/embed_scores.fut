-- Retrieval scores: every query row of E against every candidate row of F,
-- each picked through an id list and clamped into its table (ids past either
-- end read the first or last row): out[i, j] = E[qa[i]] . F[qb[j]]. The row
-- indices are computed from the id lists at the point's own index, so a
-- block's copy computes them for all its points and the rows are staged as a
-- matrix product's tiles.
fun [[f32, nb], na] main([[f32, d], ve] E, [[f32, d], vf] F, [int, na] ids_a, [int, nb] ids_b) =
  map(fn [f32, nb] (int i) =>
        let qa = min(max(ids_a[i], 0), ve - 1) in
        map(fn f32 (int j) =>
              let qb = min(max(ids_b[j], 0), vf - 1) in
              streamSeq(fn f32 (int kk, [f32, c] ec, [f32, c] fc, f32 acc) =>
                          loop (acc) = for k < c do acc + ec[k] * fc[k] in acc
                       , E[qa], F[qb], 0f32)
           , iota(nb))
     , iota(na))
