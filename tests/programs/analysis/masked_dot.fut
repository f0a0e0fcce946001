-- Causal attention scores: a dot product under a mask whose test varies
-- with both points. Stage kernel computes the product at every point before
-- the `if` (speculation), so that a block can stage its rows; the untiled
-- fallback keeps it under the `if`.
-- block: 1,0
-- stream: 16:27 tiled 2-D
-- input: 16:27 qc invariant=1 shared
-- input: 16:27 kc invariant=0 shared
fun [[f32, t], s] main([[f32, d], s] Q, [[f32, d], t] K) =
  map(fn [f32, t] (int i) =>
        map(fn f32 (int j) =>
              if j > i + 3 then -1e30f32
              else
                let q = Q[i] in
                let k = K[j] in
                let dot = streamSeq(fn f32 (int e0, [f32, c] qc, [f32, c] kc, f32 acc) =>
                                      loop (acc) = for e < c do acc + qc[e] * kc[e] in acc,
                                    q, k, 0f32)
                in dot * 0.125f32,
            iota(t)),
      iota(s))
