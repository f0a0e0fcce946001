-- An attention block in bf16, head dimension 64: O[h, i, e] = sum over j of
-- softmax_j(q_i . k_j / 8) * V[h, j, e], the scores and sums in f32. One
-- point per (head, query, output feature); the keys and values stream in
-- chunks beside a running maximum, its rescaled normaliser and the weighted
-- sum (an online softmax), as a fused attention kernel keeps them.
fun [[[f32, 64], s], h] main([[[bf16, 64], s], h] Q, [[[bf16, 64], t], h] K, [[[bf16, 64], t], h] V) =
  map(fn [[f32, 64], s] ([[bf16, 64], s] qh, [[bf16, 64], t] kh, [[bf16, 64], t] vh) =>
    map(fn [f32, 64] ([bf16, 64] q) =>
      map(fn f32 (int e) =>
        let (mx, l, acc) =
          streamSeq(fn (f32, f32, f32) (int j0, [[bf16, 64], c] kc, [[bf16, 64], c] vc,
                                        f32 mx, f32 l, f32 acc) =>
                      loop (mx, l, acc) = for j < c do
                        let sc = 0.125f32 * (loop (d = 0f32) = for u < 64 do d + f32(q[u]) * f32(kc[j, u]) in d) in
                        let mn = max(mx, sc) in
                        let a = exp(mx - mn) in
                        let p = exp(sc - mn) in
                        (mn, l * a + p, acc * a + p * f32(vc[j, e]))
                      in (mx, l, acc),
                    kh, vh, -1e30f32, 0f32, 0f32)
        in acc / l,
      iota(64)),
    qh),
  Q, K, V)
