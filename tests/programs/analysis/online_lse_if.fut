-- A log-softmax whose every element computes its row's log-sum-exp online,
-- with an `if` on which of the element and the running maximum is larger
-- (the sum rescaled when the maximum grows). The loop reads nothing of its
-- element: it moves to the row's lets, and, recognised by what it computes,
-- its iterations are shared by the row's threads, each folding its share
-- from the loop's start maximum, the shares combined by rescaling.
-- rows: 1
-- reduction: 13:17 split online max,sum of exp rescaled to it
fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] xr) =>
        map(fn f32 (f32 x) =>
              let (mx, se) =
                loop (mx = -3.0e38f32, se = 0f32) = for k < m do
                  let v = xr[k] in
                  if v > mx then (v, se * exp(mx - v) + 1f32) else (mx, se + exp(v - mx))
                in (mx, se)
              in x - mx - log(se),
            xr),
      X)
