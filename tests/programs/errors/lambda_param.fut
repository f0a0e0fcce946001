-- error: 3:24: parameter `r` is declared [f32, n], but the elements of `A` are [f32, m]
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, n] r) => r[0], A)
