-- n-body, program (A) of the design note, corrected: the loop reads the
-- chunk at its own index `k` (the note wrote `i`, which is not bound).
-- Every thread streams over all of `bodies`, which is invariant to the
-- kernel's only dimension: the 1-D tiling case.
fun [f32, n] main(f32 eps, [f32, n] bodies) =
  map(fn f32 (f32 body) =>
        streamSeq(fn f32 (int kk, [f32, chunk] bodies_chunk, f32 acc) =>
                    loop (acc) = for k < chunk do
                      acc + (bodies_chunk[k] - body)
                    in acc
                 , bodies, 0f32)
     , bodies)
