-- For each query point in 3-D: how many reference points lie within radius r,
-- and the distance to its 4th nearest reference point (kept as a sorted top-4
-- of squared distances while streaming the references).
fun ([int, m], [f32, m]) main(f32 r, [[f32, 3], n] P, [[f32, 3], m] Qs) =
  let r2 = r * r in
  map(fn (int, f32) ([f32, 3] q) =>
        let (cnt, d0, d1, d2, d3) =
          streamSeq(fn (int, f32, f32, f32, f32) (int j0, [[f32, 3], c] pc,
                                                  int cnt, f32 d0, f32 d1, f32 d2, f32 d3) =>
                      loop (cnt, d0, d1, d2, d3) = for j < c do
                        let dx = pc[j, 0] - q[0] in
                        let dy = pc[j, 1] - q[1] in
                        let dz = pc[j, 2] - q[2] in
                        let e = dx * dx + dy * dy + dz * dz in
                        let cnt2 = if e <= r2 then cnt + 1 else cnt in
                        if e >= d3 then (cnt2, d0, d1, d2, d3)
                        else if e >= d2 then (cnt2, d0, d1, d2, e)
                        else if e >= d1 then (cnt2, d0, d1, e, d2)
                        else if e >= d0 then (cnt2, d0, e, d1, d2)
                        else (cnt2, e, d0, d1, d2)
                      in (cnt, d0, d1, d2, d3),
                    P, 0, 3e38f32, 3e38f32, 3e38f32, 3e38f32)
        in (cnt, sqrt(d3)),
      Qs)
