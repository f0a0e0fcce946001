-- A star reaching 7 rows and 12 columns away: its halo takes more than 8
-- loads a thread a step in a block of 32 x 4 threads, so the march takes
-- the wider block of 64 x 4 (3 blocks an SM).
fun [[[f32, nx], ny], nz] main([[[f32, nx], ny], nz] u) =
  map(fn [[f32, nx], ny] (int z) =>
    map(fn [f32, nx] (int y) =>
      map(fn f32 (int x) => u[z, y, x] + (if z - 3 >= 0 then u[z - 3, y, x] else 0f32) + (if z + 3 < nz then u[z + 3, y, x] else 0f32) + (if y - 7 >= 0 then u[z, y - 7, x] else 0f32) + (if y + 7 < ny then u[z, y + 7, x] else 0f32) + (if x - 12 >= 0 then u[z, y, x - 12] else 0f32) + (if x + 12 < nx then u[z, y, x + 12] else 0f32), iota(nx)), iota(ny)), iota(nz))
