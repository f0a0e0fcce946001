-- error: 5:49: argument `b` of `dot` is [f32, m], but parameter `y` is [f32, n]
fun f32 dot([f32, d] x, [f32, d] y) =
  streamSeq(fn f32 (int kk, [f32, c] xc, [f32, c] yc, f32 acc) => loop (acc) = for k < c do acc + xc[k] * yc[k] in acc, x, y, 0f32)
fun [f32, n] main([[f32, n], n] A, [[f32, m], n] B) =
  map(fn f32 ([f32, n] a, [f32, m] b) => dot(a, b), zip(A, B))
