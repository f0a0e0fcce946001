-- Row maximum and the (first) column where it occurs, one streamed pass
-- with a (value, index) tuple accumulator.
fun ([f32, n], [int, n]) main([[f32, m], n] scores) =
  map(fn (f32, int) ([f32, m] srow) =>
        streamSeq(fn (f32, int) (int start, [f32, ch] sc, f32 best, int at) =>
                    loop (best, at) = for k < ch do
                      if sc[k] > best then (sc[k], start + k) else (best, at)
                    in (best, at),
                  srow, srow[0], 0),
      scores)
