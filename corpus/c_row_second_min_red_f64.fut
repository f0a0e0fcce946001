-- The second smallest entry of each row (counted with multiplicity, so a
-- row whose minimum appears twice gives the minimum): a streamRed carrying
-- the two smallest values seen, merged by keeping the two smallest of four.
fun [f64, n] main([[f64, m], n] X) =
  map(fn f64 ([f64, m] r) =>
        let (lo1, lo2) =
          streamRed(fn (f64, f64) (f64 a1, f64 a2, f64 b1, f64 b2) =>
                      (min(a1, b1), min(max(a1, b1), min(a2, b2))),
                    fn (f64, f64) (int kk, [f64, c] xs, f64 s1, f64 s2) =>
                      loop (s1, s2) = for k < c do
                        let x = xs[k] in
                        if x < s1 then (x, s1) else (s1, min(s2, x))
                      in (s1, s2),
                    r, 1.7976931348623157e308f64, 1.7976931348623157e308f64)
        in lo2,
      X)
