-- Lennard-Jones forces through a neighbour list: particle i has nnum[i] valid
-- entries in row i of nbr (fixed max degree maxn). The row is streamed and
-- positions are gathered through it. Cutoff, self-pairs skipped, a floor on r^2. f32.
fun ([f32, n], [f32, n], [f32, n]) main([f32, n] x, [f32, n] y, [f32, n] z,
                                        [[int, maxn], n] nbr, [int, n] nnum) =
  let sig2 = 0.01f32 in
  let rc2 = 0.09f32 in
  map(fn (f32, f32, f32) (int i) =>
        let xi = x[i] in
        let yi = y[i] in
        let zi = z[i] in
        let cnt = nnum[i] in
        streamSeq(fn (f32, f32, f32) (int k0, [int, c] js, f32 fx, f32 fy, f32 fz) =>
                    loop (fx, fy, fz) = for k < c do
                      if k0 + k < cnt && js[k] != i then
                        let j = js[k] in
                        let dx = xi - x[j] in
                        let dy = yi - y[j] in
                        let dz = zi - z[j] in
                        let r2 = max(dx*dx + dy*dy + dz*dz, 0.0064f32) in
                        if r2 < rc2 then
                          let sr2 = sig2 / r2 in
                          let sr6 = sr2 * sr2 * sr2 in
                          let f = 24f32 * sr6 * (2f32 * sr6 - 1f32) / r2 in
                          (fx + f*dx, fy + f*dy, fz + f*dz)
                        else (fx, fy, fz)
                      else (fx, fy, fz)
                    in (fx, fy, fz)
                 , nbr[i], 0f32, 0f32, 0f32)
     , iota(n))
