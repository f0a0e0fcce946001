-- Per series (row) of gross returns, the wealth index (running product) and the cumulative log-return (running sum of logs), two accumulators of one streamSeq over the row, condition i >= j0 + j.
fun ([[f64, m], n], [[f64, m], n]) main([[f64, m], n] G) =
  map(fn ([f64, m], [f64, m]) ([f64, m] g) =>
        map(fn (f64, f64) (int i) =>
              streamSeq(fn (f64, f64) (int j0, [f64, c] gc, f64 w, f64 lr) =>
                          loop (w, lr) = for j < c do
                            if i >= j0 + j then (w * gc[j], lr + log(gc[j])) else (w, lr)
                          in (w, lr),
                        g, 1f64, 0f64),
            iota(m)),
      G)
