-- An acoustic wave step in f64: a 25-point star times the velocity squared
-- at the point: two rows a thread, more live words than the cap leaves room for.
fun [[[f64, nx], ny], nz] main([[[f64, nx], ny], nz] u, [[[f64, nx], ny], nz] prev, [[[f64, nx], ny], nz] vel, [f64, 5] c, f64 dt2) =
  map(fn [[f64, nx], ny] (int z) =>
    map(fn [f64, nx] (int y) =>
      map(fn f64 (int x) =>
            let lap = loop (acc = 3f64 * c[0] * u[z, y, x]) = for q < 4 do
              let r = q + 1 in
              let s = (if z - r >= 0 then u[z - r, y, x] else 0f64)
                    + (if z + r < nz then u[z + r, y, x] else 0f64)
                    + (if y - r >= 0 then u[z, y - r, x] else 0f64)
                    + (if y + r < ny then u[z, y + r, x] else 0f64)
                    + (if x - r >= 0 then u[z, y, x - r] else 0f64)
                    + (if x + r < nx then u[z, y, x + r] else 0f64) in
              acc + c[r] * s
              in acc
            in 2f64 * u[z, y, x] - prev[z, y, x] + dt2 * vel[z, y, x] * vel[z, y, x] * lap,
          iota(nx)),
        iota(ny)),
      iota(nz))
