-- For each row, the last position whose entry exceeds a threshold t and
-- the entry found there (-1 and 0 when no entry does): a streamRed over
-- (position, value) whose combine keeps the pair with the larger position.
fun ([int, n], [f32, n]) main([[f32, m], n] X, f32 t) =
  map(fn (int, f32) ([f32, m] r) =>
        streamRed(fn (int, f32) (int pa, f32 va, int pb, f32 vb) =>
                    if pb > pa then (pb, vb) else (pa, va),
                  fn (int, f32) (int kk, [f32, c] xs, int pos, f32 val) =>
                    loop (pos, val) = for k < c do
                      if xs[k] > t then (kk + k, xs[k]) else (pos, val)
                    in (pos, val),
                  r, -1, 0f32),
      X)
