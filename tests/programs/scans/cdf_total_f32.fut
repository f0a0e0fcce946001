-- A cumulative distribution: the running sum over the total, both in one fold (the total updated alike on
-- both sides of the test), and a running minimum of int.
fun ([f32, n], [int, n]) main([f32, n] w, [int, n] v) =
  map(fn (f32, int) (int i) =>
        let (below, total, lo) =
          streamSeq(fn (f32, f32, int) (int j0, [f32, c] wc, [int, c] vc, f32 s, f32 t, int lo) =>
                      loop (s, t, lo) = for j < c do
                        if j0 + j <= i then (s + wc[j], t + wc[j], min(lo, vc[j])) else (s, t + wc[j], lo)
                      in (s, t, lo)
                   , w, v, 0f32, 0f32, 2147483647)
        in (below / total, lo)
     , iota(n))
