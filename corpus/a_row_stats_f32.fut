-- Per-row reductions of a matrix: sum, Euclidean norm and maximum of each row.
fun ([f32, n], [f32, n], [f32, n]) main([[f32, m], n] A) =
  map(fn (f32, f32, f32) ([f32, m] r) =>
        let (s, q, mx) =
          streamSeq(fn (f32, f32, f32) (int k0, [f32, c] x, f32 s, f32 q, f32 mx) =>
                      loop (s, q, mx) = for k < c do (s + x[k], q + x[k] * x[k], max(mx, x[k]))
                      in (s, q, mx),
                    r, 0f32, 0f32, r[0])
        in (s, sqrt(q), mx),
      A)
