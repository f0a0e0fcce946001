-- Hashed embedding followed by a linear layer: signed 32-bit hashes are
-- wrapped into the table's v rows (a non-negative remainder), and each
-- gathered row is multiplied by W: out[i, j] = sum_k T[h(ids[i]), k] * W[k, j].
fun int wrap(int key, int rows) = (key % rows + rows) % rows

fun [[f64, m], n] main([[f64, d], v] T, [int, n] ids, [[f64, m], d] W) =
  let Wt = transpose(W) in
  map(fn [f64, m] (int h) =>
        let r = wrap(h, v) in
        map(fn f64 ([f64, d] wcol) =>
              streamSeq(fn f64 (int k0, [f64, c] tc, [f64, c] wc, f64 acc) =>
                          loop (acc) = for k < c do acc + tc[k] * wc[k] in acc,
                        T[r], wcol, 0f64),
            Wt),
      ids)
