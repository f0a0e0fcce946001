-- The stream is in a helper; the analysis sees it through the call.
-- block: 1,0
-- stream: 7:3 tiled 2-D
-- input: 7:3 xc invariant=1 shared
-- input: 7:3 yc invariant=0 shared
fun f32 dot([f32, d] x, [f32, d] y) =
  streamSeq(fn f32 (int kk, [f32, c] xc, [f32, c] yc, f32 acc) =>
              loop (acc) = for k < c do acc + xc[k] * yc[k] in acc
           , x, y, 0f32)
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  map(fn [f32, q] ([f32, n] a) => map(fn f32 ([f32, n] b) => dot(a, b), B), A)
