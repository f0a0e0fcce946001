-- 3-D 7-point Laplacian in double precision on a (nz, ny, nx) grid with
-- spacing h; neighbours outside the box are clamped (zero-flux boundary).
fun int cl(int i, int n) = max(0, min(i, n - 1))

fun [[[f64, nx], ny], nz] main(f64 h, [[[f64, nx], ny], nz] u) =
  let inv = 1f64 / (h * h) in
  map(fn [[f64, nx], ny] (int z) =>
        map(fn [f64, nx] (int y) =>
              map(fn f64 (int x) =>
                    let c = u[z, y, x] in
                    let s = u[cl(z - 1, nz), y, x] + u[cl(z + 1, nz), y, x]
                          + u[z, cl(y - 1, ny), x] + u[z, cl(y + 1, ny), x]
                          + u[z, y, cl(x - 1, nx)] + u[z, y, cl(x + 1, nx)]
                    in (s - 6f64 * c) * inv,
                  iota(nx)),
            iota(ny)),
      iota(nz))
