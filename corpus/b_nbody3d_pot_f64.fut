-- Gravitational potential at nt target points from ns source masses in 3-D,
-- double precision, softened 1/sqrt(r^2 + eps^2). Plain loop over sources.
fun [f64, nt] main([f64, nt] tx, [f64, nt] ty, [f64, nt] tz,
                   [f64, ns] sx, [f64, ns] sy, [f64, ns] sz, [f64, ns] sm) =
  map(fn f64 (f64 x, f64 y, f64 z) =>
        let phi = loop (acc = 0f64) = for j < ns do
                    let dx = x - sx[j] in
                    let dy = y - sy[j] in
                    let dz = z - sz[j] in
                    acc - sm[j] / sqrt(dx*dx + dy*dy + dz*dz + 1e-4f64)
                  in acc
        in phi
     , zip(tx, ty, tz))
