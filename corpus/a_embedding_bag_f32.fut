-- Weighted embedding bag: each of nb bags holds L indices into a table of
-- 64-wide embeddings; out[b, e] = sum_l w[b,l] * table[idx[b,l], e].
-- The index and weight rows of a bag are streamed together.
fun [[f32, 64], nb] main([[f32, 64], v] table, [[int, L], nb] idx, [[f32, L], nb] w) =
  map(fn [f32, 64] ([int, L] ids, [f32, L] ws) =>
        map(fn f32 (int e) =>
              streamSeq(fn f32 (int l0, [int, c] ic, [f32, c] wc, f32 acc) =>
                          loop (acc) = for l < c do acc + wc[l] * table[ic[l], e] in acc,
                        ids, ws, 0f32),
            iota(64)),
      idx, w)
