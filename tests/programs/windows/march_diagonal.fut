-- A 3-D stencil whose in-plane reads move along both of the plane's axes at
-- once (its corners): the march stages the halo's corners too.
fun [[[f32, nx], ny], nz] main([[[f32, nx], ny], nz] u) =
  map(fn [[f32, nx], ny] (int z) =>
    map(fn [f32, nx] (int y) =>
      map(fn f32 (int x) =>
            let zm = max(z - 2, 0) in
            let zp = min(z + 2, nz - 1) in
            let ym = max(y - 2, 0) in
            let yp = min(y + 1, ny - 1) in
            let xm = max(x - 1, 0) in
            let xp = min(x + 3, nx - 1) in
            u[zm, y, x] + u[zp, y, x] + 2f32 * u[z, y, x]
              + u[z, ym, xm] - u[z, yp, xp] + u[z, ym, xp] * 0.5f32 - u[z, yp, xm],
          iota(nx)),
        iota(ny)),
      iota(nz))
