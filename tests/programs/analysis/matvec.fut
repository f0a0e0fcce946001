-- Matrix-vector product: each thread streams its own row of A (staged only
-- so that its reads coalesce) and all of x (invariant: shared by the block).
-- block: 0
-- stream: 10:9 tiled 1-D
-- input: 10:9 ac invariant= shared
-- reason: 10:9 ac in place its reads are a row apart along threadIdx.x
-- input: 10:9 xc invariant=0 shared
fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] a) =>
        streamSeq(fn f32 (int kk, [f32, c] ac, [f32, c] xc, f32 acc) =>
                    loop (acc) = for k < c do acc + ac[k] * xc[k] in acc
                 , a, x, 0f32)
     , A)
