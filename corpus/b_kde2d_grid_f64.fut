-- 2-D kernel density estimate on a gy x gx image grid over [0,1)^2 (iota
-- both ways) from ns scattered samples; Gaussian kernel, f64 exp.
fun [[f64, gx], gy] main(int gx, int gy, f64 bw, [f64, ns] sx, [f64, ns] sy) =
  let c = -0.5f64 / (bw * bw) in
  let norm = 1f64 / (f64(ns) * 6.283185307179586f64 * bw * bw) in
  map(fn [f64, gx] (int r) =>
        let py = (f64(r) + 0.5f64) / f64(gy) in
        map(fn f64 (int q) =>
              let px = (f64(q) + 0.5f64) / f64(gx) in
              let dens = loop (d = 0f64) = for s < ns do
                           let dx = px - sx[s] in
                           let dy = py - sy[s] in
                           d + exp(c * (dx*dx + dy*dy))
                         in d
              in norm * dens
           , iota(gx))
     , iota(gy))
