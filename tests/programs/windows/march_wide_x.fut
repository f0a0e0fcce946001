-- A star whose x neighbours are 16 columns away: a halo wider than a thread's
-- share of the plane's columns (the march's halo band, clamped into the plane).
fun [[[f32, nx], ny], nz] main([[[f32, nx], ny], nz] u) =
  map(fn [[f32, nx], ny] (int z) =>
    map(fn [f32, nx] (int y) =>
      map(fn f32 (int x) => u[z, y, x] + (if z - 1 >= 0 then u[z - 1, y, x] else 0f32) + (if z + 1 < nz then u[z + 1, y, x] else 0f32) + (if y - 1 >= 0 then u[z, y - 1, x] else 0f32) + (if y + 1 < ny then u[z, y + 1, x] else 0f32) + (if x - 16 >= 0 then u[z, y, x - 16] else 0f32) + (if x + 16 < nx then u[z, y, x + 16] else 0f32), iota(nx)), iota(ny)), iota(nz))
