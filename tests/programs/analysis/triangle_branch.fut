-- A stream under `if j <= i`: its input is invariant to dimension 0, and a
-- block spanning dimension 0 would share it, but the branch varies along
-- that dimension. The reason names the branch, not the other block shapes.
-- stream: 12:20 untiled
-- input: 12:20 a invariant=0 global
-- reason: 12:20 a the stream is under a branch (11:18) that varies with dimension 0
-- transpose: A no is the same for every point along dimension 0
fun [[f32, n], n] main([[f32, m], n] A) =
  map(fn [f32, n] (int i) =>
        map(fn f32 (int j) =>
              if j <= i
              then streamSeq(fn f32 (int kk, [f32, c] a, f32 acc) =>
                               loop (acc) = for k < c do acc + a[k] in acc
                            , A[j], 0f32)
              else 0f32
           , iota(n))
     , iota(n))
