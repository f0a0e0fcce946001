-- Running balance of an account after each transaction, and its running maximum drawdown (largest fall from a previous peak), one loop over all transactions that keeps its three accumulators where j > i.
fun ([f64, n], [f64, n]) main([f64, n] amounts, f64 opening) =
  map(fn (f64, f64) (int i) =>
        loop (bal = opening, peak = opening, dd = 0f64) = for j < n do
          if j > i then (bal, peak, dd)
          else
            let nb = bal + amounts[j] in
            let np = max(peak, nb) in
            (nb, np, max(dd, np - nb))
        in (bal, dd),
      iota(n))
