-- Matrix-vector product: each thread streams its own row of A (private, in
-- global memory) and all of x (invariant: shared). Partial tiling.
-- block: 0
-- stream: 10:9 tiled 1-D, partial
-- input: 10:9 ac invariant= global
-- reason: 10:9 ac varies with every dimension (0)
-- input: 10:9 xc invariant=0 shared
fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] a) =>
        streamSeq(fn f32 (int kk, [f32, c] ac, [f32, c] xc, f32 acc) =>
                    loop (acc) = for k < c do acc + ac[k] * xc[k] in acc
                 , a, x, 0f32)
     , A)
