-- How many entries of each row lie below a threshold t: the count is
-- written as a conditional update of an int accumulator.
fun [int, n] main([[f32, m], n] X, f32 t) =
  map(fn int ([f32, m] r) =>
        streamSeq(fn int (int kk, [f32, c] rc, int cnt) =>
                    loop (cnt) = for k < c do
                      if rc[k] < t then cnt + 1 else cnt
                    in cnt,
                  r, 0),
      X)
