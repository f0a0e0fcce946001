-- 3-D 27-point weighted stencil: out[z,y,x] = sum over a 3x3x3 neighbourhood of
-- W[a,b,c] * v[z+a-1, y+b-1, x+c-1], cells outside the volume count as 0.
fun [[[f32, nx], ny], nz] main([[[f32, nx], ny], nz] v, [[[f32, 3], 3], 3] W) =
  map(fn [[f32, nx], ny] (int z) =>
    map(fn [f32, nx] (int y) =>
      map(fn f32 (int x) =>
        loop (acc = 0f32) = for a < 3 do
          let zz = z + a - 1 in
          if zz < 0 || zz >= nz then acc else
          loop (acc) = for b < 3 do
            let yy = y + b - 1 in
            if yy < 0 || yy >= ny then acc else
            loop (acc) = for c < 3 do
              let xx = x + c - 1 in
              if xx >= 0 && xx < nx then acc + W[a, b, c] * v[zz, yy, xx] else acc
            in acc
          in acc
        in acc,
      iota(nx)),
    iota(ny)),
  iota(nz))
