-- error: 7:9: a kernel has at most 3 parallel dimensions
-- hint: write this map as a `streamSeq` or a `loop`
fun [[[[f32, a], b], c], d] main([[[[f32, a], b], c], d] x) =
  map(fn [[[f32, a], b], c] ([[[f32, a], b], c] x3) =>
    map(fn [[f32, a], b] ([[f32, a], b] x2) =>
      map(fn [f32, a] ([f32, a] x1) =>
        map(fn f32 (f32 x0) => x0, x1), x2), x3), x)
