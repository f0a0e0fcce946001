-- error: 4:13: only scalar lets may stand between two map levels; `r` is [f32, m]
fun [[f32, m], n] main([[f32, m], n] A) =
  map(fn [f32, m] ([f32, m] a) =>
    let r = a in
    map(fn f32 (f32 x) => x + r[0], a), A)
