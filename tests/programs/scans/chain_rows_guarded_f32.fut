-- Per row, over the elements up to each point that pass a test: a running sum, its running maximum, the
-- largest fall below that maximum, and a product of growth factors that reads the running sum.
fun ([[f32, m], r], [[f32, m], r]) main([[f32, m], r] X) =
  map(fn ([f32, m], [f32, m]) ([f32, m] row) =>
        map(fn (f32, f32) (int i) =>
              let (s, hi, fall, g) = streamSeq(fn (f32, f32, f32, f32) (int j0, [f32, c] xc, f32 s, f32 hi, f32 fall, f32 g) =>
                          loop (s, hi, fall, g) = for j < c do
                            let at = j0 + j in
                            if at <= i && xc[j] > -0.5f32 then
                              let s2 = s + xc[j] in
                              let h2 = max(hi, s2) in
                              (s2, h2, max(fall, h2 - s2), g * (1f32 + s2 * 0.0001f32))
                            else (s, hi, fall, g)
                          in (s, hi, fall, g),
                        row, 0f32, -1.0e30f32, 0f32, 1f32)
              in (fall, g + s)
           , iota(m))
     , X)
