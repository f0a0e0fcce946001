-- Direct Coulomb summation on a 3-D lattice (nz x ny x nx points from iota)
-- from na atoms with charges; the grid spacing is a scalar input. f32, rsqrt.
fun [[[f32, nx], ny], nz] main(int nx, int ny, int nz, f32 spacing,
                                [f32, na] ax, [f32, na] ay, [f32, na] az, [f32, na] aq) =
  map(fn [[f32, nx], ny] (int k) =>
    let z = spacing * f32(k) in
    map(fn [f32, nx] (int j) =>
      let y = spacing * f32(j) in
      map(fn f32 (int i) =>
        let x = spacing * f32(i) in
        streamSeq(fn f32 (int start, [f32, ch] xa, [f32, ch] ya, [f32, ch] za, [f32, ch] qa, f32 e) =>
                    loop (e) = for a < ch do
                      let dx = x - xa[a] in
                      let dy = y - ya[a] in
                      let dz = z - za[a] in
                      e + qa[a] * rsqrt(dx*dx + dy*dy + dz*dz + 0.01f32)
                    in e
                 , ax, ay, az, aq, 0f32)
      , iota(nx))
    , iota(ny))
  , iota(nz))
