-- Each thread sums its own row, but only where its weight is positive: the
-- stream is under a branch that differs between threads, so the block cannot
-- stage the rows (its threads would not all reach the copy's barriers). The
-- launch transposes A instead, for rows long enough to pay.
-- stream: 12:11 untiled
-- input: 12:11 rc invariant= global
-- reason: 12:11 rc the launch transposes A instead
-- transpose: A yes m >= 2048 and n <= 16896
fun [f32, n] main([[f32, m], n] A, [f32, n] w) =
  map(fn f32 ([f32, m] r, f32 wi) =>
        if wi > 0f32 then
          streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                      loop (acc) = for k < c do acc + rc[k] * wi in acc
                   , r, 0f32)
        else 0f32 - 1f32
     , A, w)
