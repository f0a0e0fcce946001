-- Single-pass attention with an online softmax, head dimension 32:
-- O[h, i, e] = sum_j softmax_j(q_i . k_j / sqrt(32)) * V[h, j, e].
-- One point per (head, query, output feature); keys and values are streamed
-- together in chunks, keeping the running max, normaliser and weighted sum.
fun [[[f32, 32], s], h] main([[[f32, 32], s], h] Q, [[[f32, 32], t], h] K, [[[f32, 32], t], h] V) =
  let scale = rsqrt(32f32) in
  map(fn [[f32, 32], s] ([[f32, 32], s] qh, [[f32, 32], t] kh, [[f32, 32], t] vh) =>
    map(fn [f32, 32] ([f32, 32] q) =>
      map(fn f32 (int e) =>
        let (mx, l, acc) =
          streamSeq(fn (f32, f32, f32) (int j0, [[f32, 32], c] kc, [[f32, 32], c] vc,
                                        f32 mx, f32 l, f32 acc) =>
                      loop (mx, l, acc) = for j < c do
                        let sc = scale * (loop (d = 0f32) = for u < 32 do d + q[u] * kc[j, u] in d) in
                        let mn = max(mx, sc) in
                        let a = exp(mx - mn) in
                        let p = exp(sc - mn) in
                        (mn, l * a + p, acc * a + p * vc[j, e])
                      in (mx, l, acc),
                    kh, vh, -1e30f32, 0f32, 0f32)
        in acc / l,
      iota(32)),
    qh),
  Q, K, V)
