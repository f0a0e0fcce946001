-- Squared distances weighted by the position along the rows: the weight is
-- an integer converted, finite, so the zeros TMA writes past the rows' end
-- add nothing (zero times a finite value) and the last chunk runs whole.
-- stream: 8:15 tiled 2-D
fun [[f32, m], n] main([[f32, d], n] X, [[f32, d], m] Y) =
  map(fn [f32, m] ([f32, d] x) =>
        map(fn f32 ([f32, d] y) =>
              streamSeq(fn f32 (int k0, [f32, c] xc, [f32, c] yc, f32 acc) =>
                          loop (acc) = for k < c do
                            let t = xc[k] - yc[k] in acc + f32(k0 + k) * t * t
                          in acc,
                        x, y, 0f32),
            Y),
      X)
