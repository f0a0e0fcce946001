-- Each row folded four ways at once (a sum, a product, a minimum and a
-- maximum, one loop carrying all four), the operands in either order and
-- from start values that are not the operators' identities: every lane of
-- the row folds its share, and the shares are combined per operator.
-- rows: 1
-- reduction: 11:9 split +,*,min,max
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        let lo = r[0] in
        let (s, p, mn, mx) =
        loop (s = 1f32, p = 1f32, mn = lo, mx = -5f32) = for k < m do
          (r[k] + s, p * (1f32 + r[k] / 64f32), min(mn, r[k]), max(r[k] * 2f32, mx))
        in (s, p, mn, mx)
        in s + p + mn * mx
     , A)
