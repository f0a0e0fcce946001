-- Direct (O(n*nf)) DFT of a complex signal at nf frequency bins. The phase
-- index (f * t) mod n is computed exactly in i64 before the sin/cos. f32.
fun ([f32, nf], [f32, nf]) main(int nf, [f32, n] re, [f32, n] im) =
  let scale = -6.2831853f32 / f32(n) in
  map(fn (f32, f32) (int f) =>
        let fl = i64(f) in
        streamSeq(fn (f32, f32) (int t0, [f32, c] xr, [f32, c] xi, f32 sr, f32 si) =>
                    loop (sr, si) = for t < c do
                      let ph = (fl * i64(t0 + t)) % i64(n) in
                      let a = scale * f32(ph) in
                      let cs = cos(a) in
                      let sn = sin(a) in
                      (sr + xr[t]*cs - xi[t]*sn, si + xr[t]*sn + xi[t]*cs)
                    in (sr, si)
                 , re, im, 0f32, 0f32)
     , iota(nf))
