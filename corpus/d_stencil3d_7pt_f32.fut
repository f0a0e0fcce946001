-- One explicit step of 3-D heat diffusion with the 7-point Laplacian:
--   u'[z,y,x] = u + alpha * (u[z-1] + u[z+1] + u[y-1] + u[y+1] + u[x-1] + u[x+1] - 6 u)
-- Neighbours past a face of the grid are clamped to the face (zero-flux walls).
fun [[[f32, nx], ny], nz] main(f32 alpha, [[[f32, nx], ny], nz] u) =
  map(fn [[f32, nx], ny] (int z) =>
        let zm = max(z - 1, 0) in
        let zp = min(z + 1, nz - 1) in
        map(fn [f32, nx] (int y) =>
              let ym = max(y - 1, 0) in
              let yp = min(y + 1, ny - 1) in
              map(fn f32 (int x) =>
                    let xm = max(x - 1, 0) in
                    let xp = min(x + 1, nx - 1) in
                    let c = u[z, y, x] in
                    let lap = u[zm, y, x] + u[zp, y, x]
                            + u[z, ym, x] + u[z, yp, x]
                            + u[z, y, xm] + u[z, y, xp]
                            - 6f32 * c in
                    c + alpha * lap,
                  iota(nx)),
            iota(ny)),
      iota(nz))
