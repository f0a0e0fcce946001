-- Attention scores S[h, i, j] = (q_i . k_j) / sqrt(64) for each head h, with a
-- causal mask (keys after the query position, aligned to the end, get -1e30).
-- Head dimension is a literal 64.
fun [[[f32, t], s], h] main([[[f32, 64], s], h] Q, [[[f32, 64], t], h] K) =
  let shift = t - s in
  map(fn [[f32, t], s] (int hh) =>
        map(fn [f32, t] (int i) =>
              map(fn f32 (int j) =>
                    if j > i + shift then -1e30f32
                    else
                      let q = Q[hh, i] in
                      let k = K[hh, j] in
                      let d = streamSeq(fn f32 (int e0, [f32, c] qc, [f32, c] kc, f32 acc) =>
                                          loop (acc) = for e < c do acc + qc[e] * kc[e] in acc,
                                        q, k, 0f32)
                      in d * 0.125f32,
                  iota(t)),
            iota(s)),
      iota(h))
