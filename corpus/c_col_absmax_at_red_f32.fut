-- For each column, the entry of largest magnitude with its sign kept, and
-- its row (the first such row on ties): a streamRed over (value, row) on the
-- transposed input whose combine compares |value| and breaks ties by row.
fun ([f32, m], [int, m]) main([[f32, m], n] X) =
  let Xt = transpose(X) in
  map(fn (f32, int) ([f32, n] col) =>
        streamRed(fn (f32, int) (f32 va, int ia, f32 vb, int ib) =>
                    if abs(vb) > abs(va) || (abs(vb) == abs(va) && ib < ia)
                    then (vb, ib) else (va, ia),
                  fn (f32, int) (int kk, [f32, c] xs, f32 best, int at) =>
                    loop (best, at) = for k < c do
                      let x = xs[k] in
                      if abs(x) > abs(best) || (abs(x) == abs(best) && kk + k < at)
                      then (x, kk + k) else (best, at)
                    in (best, at),
                  col, 0f32, 2147483647),
      Xt)
