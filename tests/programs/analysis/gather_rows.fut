-- Each thread sums the row of A that an index array picks for it (an
-- embedding lookup): the row differs between threads through data, but
-- through an input read at the thread's index, so the block copies its
-- threads' rows (`A[idx[base + r]]`) along the rows, coalesced.
-- block: 0
-- stream: 12:9 tiled 1-D
-- input: 12:9 rc invariant= shared
-- reason: 12:9 rc in place its reads are a row apart along threadIdx.x
fun [f32, n] main([int, n] idx, [[f32, m], r] A) =
  map(fn f32 (int i) =>
        let row = A[i] in
        streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                    loop (acc) = for k < c do acc + rc[k] * f32(kk + k) in acc
                 , row, 0f32)
     , idx)
