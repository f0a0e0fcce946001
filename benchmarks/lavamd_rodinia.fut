-- Rodinia's lavaMD: particles in a 3-D grid of boxes, `p` (100) a box. Each
-- particle sums the potential and force of every particle in its home box
-- and its neighbour boxes. Row `bx` of `nei` lists the home box first and
-- then its neighbours; `nn[bx]` counts them (at most 27). The rows of the
-- neighbour box are invariant to the second dimension (particles).
fun ([[f32, p], b], [[f32, p], b], [[f32, p], b], [[f32, p], b])
main(f32 alpha, [int, b] nn, [[int, 27], b] nei,
     [[f32, p], b] rv, [[f32, p], b] rx, [[f32, p], b] ry, [[f32, p], b] rz, [[f32, p], b] qv) =
  let a2 = 2f32 * alpha * alpha in
  map(fn ([f32, p], [f32, p], [f32, p], [f32, p])
         (int bx, int count, [f32, p] rvb, [f32, p] rxb, [f32, p] ryb, [f32, p] rzb) =>
        map(fn (f32, f32, f32, f32) (f32 vi, f32 xi, f32 yi, f32 zi) =>
              loop (fv = 0f32, fx = 0f32, fy = 0f32, fz = 0f32) = for k < count do
                let jb = nei[bx, k] in
                streamSeq(fn (f32, f32, f32, f32)
                             (int kk, [f32, c] vj, [f32, c] xj, [f32, c] yj, [f32, c] zj, [f32, c] qj,
                              f32 fv, f32 fx, f32 fy, f32 fz) =>
                            loop (fv, fx, fy, fz) = for j < c do
                              let r2 = vi + vj[j] - (xi * xj[j] + yi * yj[j] + zi * zj[j]) in
                              let vij = exp(-(a2 * r2)) in
                              let fs = 2f32 * vij in
                              let q = qj[j] in
                              (fv + q * vij,
                               fx + q * (fs * (xi - xj[j])),
                               fy + q * (fs * (yi - yj[j])),
                               fz + q * (fs * (zi - zj[j])))
                            in (fv, fx, fy, fz)
                         , rv[jb], rx[jb], ry[jb], rz[jb], qv[jb], fv, fx, fy, fz)
              in (fv, fx, fy, fz)
           , rvb, rxb, ryb, rzb)
     , zip(iota(b), nn, rv, rx, ry, rz))
