-- The position of each row's smallest square (the first of equal ones, as
-- the loop in order keeps it) and of its largest element (the last of
-- equal ones: `<=`): pairs of an extreme value and its index, which the
-- row's threads split, combining their shares by value and, between equal
-- values, by the iteration each came from.
-- rows: 1
-- reduction: 12:9 split argmin,argmin
-- reduction: 14:9 split argmax,argmax
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        let (i, v) =
        loop (i = 0, v = 1e30f32) = for k < m do let d = f32(int(r[k] * 4f32)) in if d * d < v then (k, d * d) else (i, v) in (i, v) in
        let (w, j) =
        loop (w = -2f32, j = -1f32) = for k < m do if w <= f32(int(r[k] * 4f32)) then (f32(int(r[k] * 4f32)), f32(k)) else (w, j) in (w, j) in
        f32(i) + v * 0.5f32 + j * 1000f32 + w
     , A)
