-- Fixed-radius neighbour count in 3-D plus distance to the nearest other point,
-- all pairs; light body (compare and min), int and f32 outputs.
fun ([int, n], [f32, n]) main(f32 radius, [f32, n] x, [f32, n] y, [f32, n] z) =
  let r2 = radius * radius in
  map(fn (int, f32) (f32 a, f32 b, f32 c) =>
        let (cnt, best) =
          streamSeq(fn (int, f32) (int o, [f32, k] xs, [f32, k] ys, [f32, k] zs, int cnt, f32 best) =>
                      loop (cnt, best) = for j < k do
                        let dx = xs[j] - a in
                        let dy = ys[j] - b in
                        let dz = zs[j] - c in
                        let d2 = dx*dx + dy*dy + dz*dz in
                        (if d2 < r2 then cnt + 1 else cnt,
                         if d2 > 0f32 then min(best, d2) else best)
                      in (cnt, best)
                   , x, y, z, 0, 1e30f32)
        in (cnt - 1, sqrt(best))
     , zip(x, y, z))
