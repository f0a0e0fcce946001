-- Rank-one update C' = C + alpha * u v^T, written with zipped maps.
fun [[f32, m], n] main(f32 alpha, [f32, n] u, [f32, m] v, [[f32, m], n] C) =
  map(fn [f32, m] (f32 ui, [f32, m] crow) =>
        let au = alpha * ui in
        map(fn f32 (f32 vj, f32 cij) => cij + au * vj, v, crow),
      u, C)
