-- C = A Bt^T in double precision, with B supplied already transposed (one row
-- per output column); each dot product uses Kahan compensated summation.
fun [[f64, m], n] main([[f64, p], n] A, [[f64, p], m] Bt) =
  map(fn [f64, m] ([f64, p] a) =>
        map(fn f64 ([f64, p] b) =>
              let (s, comp) =
                streamSeq(fn (f64, f64) (int kk, [f64, c] ac, [f64, c] bc, f64 s, f64 comp) =>
                            loop (s, comp) = for t < c do
                              let y = ac[t] * bc[t] - comp in
                              let s2 = s + y in
                              (s2, (s2 - s) - y)
                            in (s, comp),
                          a, b, 0f64, 0f64)
              in s,
            Bt),
      A)
