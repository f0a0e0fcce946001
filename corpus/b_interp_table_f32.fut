-- Piecewise-linear interpolation in a table given as node spacings dx[j] > 0
-- and node values y[j]: each query walks the whole table, tracking the node
-- position and the previous value, and interpolates in the segment that holds
-- it. Queries come as fractions of the table length. f32.
fun [f32, nq] main([f32, nq] q, [f32, m] dx, [f32, m] y) =
  let total = f32(m) * 0.95f32 in
  map(fn f32 (f32 u) =>
        let xq = u * total in
        let (pos, yprev, res) =
          streamSeq(fn (f32, f32, f32) (int j0, [f32, c] dxc, [f32, c] yc, f32 pos, f32 yprev, f32 res) =>
                      loop (pos, yprev, res) = for j < c do
                        let nxt = pos + dxc[j] in
                        let r = if xq >= pos && xq < nxt
                                then yprev + (yc[j] - yprev) * (xq - pos) / dxc[j]
                                else res in
                        (nxt, yc[j], r)
                      in (pos, yprev, res)
                   , dx, y, 0f32, 0f32, 0f32)
        in res
     , q)
