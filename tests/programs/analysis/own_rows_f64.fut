-- Each thread's dot product of its own two f64 rows, streamed together:
-- nothing is shared, but read in place the rows are a row apart along
-- threadIdx.x, so a block stages its threads' rows to coalesce. 256
-- threads would need more shared memory than a block may have even in
-- chunks of 8; the block is narrowed for its rows first (16 threads), and
-- its chunks hold 256 bytes of each row (32 f64), so the tiles fit.
-- stream: 13:9 tiled 1-D
-- input: 13:9 ac invariant= shared
-- input: 13:9 bc invariant= shared
-- block: 0
fun [f64, n] main([[f64, m], n] A, [[f64, m], n] B) =
  map(fn f64 ([f64, m] a, [f64, m] b) =>
        streamSeq(fn f64 (int kk, [f64, c] ac, [f64, c] bc, f64 acc) =>
                    loop (acc) = for k < c do acc + ac[k] * bc[k] in acc
                 , a, b, 0f64)
     , zip(A, B))
