-- Histogram by comparison: nb equal-width bins over [lo, hi); each bin counts
-- (as i64) the samples that fall in it by streaming over all of the data.
fun [i64, nb] main(int nb, f32 lo, f32 hi, [f32, n] data) =
  let width = (hi - lo) / f32(nb) in
  map(fn i64 (int b) =>
        let a = lo + width * f32(b) in
        let z = if b == nb - 1 then hi else a + width in
        streamSeq(fn i64 (int s0, [f32, c] xs, i64 cnt) =>
                    loop (cnt) = for t < c do
                      if xs[t] >= a && xs[t] < z then cnt + 1i64 else cnt
                    in cnt,
                  data, 0i64),
      iota(nb))
