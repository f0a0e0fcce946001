-- A 3-D stencil of radius 2 along z and 1 in the plane, its edges clamped (a
-- neighbour past a face reads the face), in f64 with an f64 weight per axis.
fun [[[f64, nx], ny], nz] main([[[f64, nx], ny], nz] u, [f64, 3] w) =
  map(fn [[f64, nx], ny] (int z) =>
    map(fn [f64, nx] (int y) =>
      map(fn f64 (int x) =>
            let zl = max(0, z - 2) in
            let zh = min(nz - 1, z + 2) in
            let ym = max(0, y - 1) in
            let yp = min(ny - 1, y + 1) in
            let xm = max(0, x - 1) in
            let xp = min(nx - 1, x + 1) in
            w[0] * (u[zl, y, x] + u[zh, y, x] + u[max(0, z - 1), y, x] + u[min(nz - 1, z + 1), y, x])
              + w[1] * (u[z, ym, x] + u[z, yp, x])
              + w[2] * (u[z, y, xm] + u[z, y, xp]) - 3.0f64 * u[z, y, x],
          iota(nx)),
        iota(ny)),
      iota(nz))
