-- One Jacobi sweep of the 2-D Poisson equation with a 5-point stencil:
-- u'[y,x] = (u[y-1,x] + u[y+1,x] + u[y,x-1] + u[y,x+1] + h2 * f[y,x]) / 4.
-- Neighbours outside the grid are clamped to the edge.
fun [[f32, nx], ny] main(f32 h2, [[f32, nx], ny] U, [[f32, nx], ny] F) =
  map(fn [f32, nx] (int y) =>
        let ym = max(y - 1, 0) in
        let yp = min(y + 1, ny - 1) in
        map(fn f32 (int x) =>
              let xm = max(x - 1, 0) in
              let xp = min(x + 1, nx - 1) in
              0.25f32 * (U[ym, x] + U[yp, x] + U[y, xm] + U[y, xp] + h2 * F[y, x]),
            iota(nx)),
      iota(ny))
