-- Each row's dot product with a weight vector normalised by its sum and
-- scaled by its largest magnitude: the sum and the maximum read nothing of
-- any map level's names, so they are computed once a launch, by a kernel of
-- one point run first (its block's threads sharing both reductions), and
-- every kernel of the launch reads them from scratch memory.
-- stream: 15:9 tiled 1-D
-- input: 15:9 ws invariant=0 shared
fun f32 total([f32, m] v) = loop (s = 0f32) = for t < m do s + v[t] in s

fun [f32, n] main([[f32, m], n] X, [f32, m] w) =
  map(fn f32 ([f32, m] row) =>
        let (big, sq) = loop (b = 0f32, q = 0f32) = for t < m do (max(b, abs(w[t])), q + w[t] * w[t]) in (b, q) in
        let inv = 1f32 / (total(w) * big) in
        sqrt(sq) *
        streamSeq(fn f32 (int kk, [f32, c] xs, [f32, c] ws, f32 acc) =>
                    loop (acc) = for k < c do acc + xs[k] * ws[k] * inv in acc,
                  row, w, 0f32),
      X)
