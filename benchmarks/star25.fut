-- A 25-point 3-D star (8th-order finite differences, as in seismic wave
-- propagation): radius 4 along each axis plus the centre, a neighbour past
-- a face skipped. Its reads move with the point along all three dimensions.
fun [[[f32, nx], ny], nz] main([[[f32, nx], ny], nz] u, [f32, 5] c) =
  map(fn [[f32, nx], ny] (int z) =>
    map(fn [f32, nx] (int y) =>
      map(fn f32 (int x) =>
            loop (acc = c[0] * u[z, y, x]) = for q < 4 do
              let r = q + 1 in
              let s = (if z - r >= 0 then u[z - r, y, x] else 0f32)
                    + (if z + r < nz then u[z + r, y, x] else 0f32)
                    + (if y - r >= 0 then u[z, y - r, x] else 0f32)
                    + (if y + r < ny then u[z, y + r, x] else 0f32)
                    + (if x - r >= 0 then u[z, y, x - r] else 0f32)
                    + (if x + r < nx then u[z, y, x + r] else 0f32) in
              acc + c[r] * s
            in acc,
          iota(nx)),
        iota(ny)),
      iota(nz))
