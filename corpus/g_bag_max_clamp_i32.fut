-- Max pooling over bags of quantised (int) embedding rows. Ids may fall
-- outside the table and are clamped to its first or last row.
-- out[b, f] = max over l of Q[clamp(idx[b, l]), f].
fun int clamp(int i, int hi) = min(max(i, 0), hi - 1)

fun [[int, d], nb] main([[int, d], v] Q, [[int, L], nb] idx) =
  map(fn [int, d] (int b) =>
        map(fn int (int f) =>
              streamRed(fn int (int x, int y) => max(x, y),
                        fn int (int l0, [int, c] ic, int best) =>
                          loop (best) = for l < c do
                            max(best, Q[clamp(ic[l], v), f])
                          in best,
                        idx[b], -2147483648),
            iota(d)),
      iota(nb))
