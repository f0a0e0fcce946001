-- A guarded star along z and y whose last guard is one int arithmetic
-- wraps: `z + 2147483647 >= 1` is false for every z >= 1, so the read it
-- guards is made only at z = 0; the march's body for the steps inside must
-- keep that test (its operand leaves an int's range) and decide the rest.
fun [[[f32, nx], ny], nz] main([[[f32, nx], ny], nz] u) =
  map(fn [[f32, nx], ny] (int z) =>
    map(fn [f32, nx] (int y) =>
      map(fn f32 (int x) =>
            (if z - 1 >= 0 then u[z - 1, y, x] else 0f32)
              + (if z + 1 < nz then u[z + 1, y, x] else 0f32)
              + (if y - 1 >= 0 then u[z, y - 1, x] else 0f32)
              + (if x + 1 < nx then u[z, y, x + 1] else 0f32)
              + (if z + 2147483647 >= 1 then 1000f32 * u[z, y, x] else u[z, y, x]),
          iota(nx)),
        iota(ny)),
      iota(nz))
