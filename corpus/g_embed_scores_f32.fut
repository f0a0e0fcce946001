-- Retrieval / skip-gram scoring: every query id in ids_a against every
-- candidate id in ids_b; out[i, j] = dot(E[ids_a[i]], F[ids_b[j]]).
-- Both rows are gathered through the id tables and streamed together.
fun [[f32, nb], na] main([[f32, d], ve] E, [[f32, d], vf] F,
                         [int, na] ids_a, [int, nb] ids_b) =
  map(fn [f32, nb] (int ia) =>
        map(fn f32 (int ib) =>
              streamSeq(fn f32 (int k0, [f32, c] ec, [f32, c] fc, f32 s) =>
                          loop (s) = for k < c do s + ec[k] * fc[k] in s,
                        E[ia], F[ib], 0f32),
            ids_b),
      ids_a)
