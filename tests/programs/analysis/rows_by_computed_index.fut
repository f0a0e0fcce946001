-- Both operands' rows are picked through indices computed from data: a
-- signed hash wrapped into A's rows by a remainder, and an id clamped into
-- Bt's rows and shifted by a scalar. Each index is built from an input read
-- at the point's own index, sizes, a scalar of main and arithmetic, so any
-- thread can compute another thread's row: a 2-D block copies the rows of
-- all its points and the product is register-tiled as mm is.
-- block: 1,0
-- stream: 18:15 tiled 2-D
-- input: 18:15 uc invariant=1 shared
-- input: 18:15 vc invariant=0 shared
fun [[f32, q], m] main([int, m] hash, [int, q] ids, int shift, [[f32, n], r] A, [[f32, n], b] Bt) =
  map(fn [f32, q] (int i) =>
        let ia = (hash[i] % r + r) % r in
        map(fn f32 (int j) =>
              let jb = min(max(ids[j] + shift, 0), b - 1) in
              let u = A[ia] in
              let v = Bt[jb] in
              streamSeq(fn f32 (int kk, [f32, c] uc, [f32, c] vc, f32 acc) =>
                          loop (acc) = for k < c do acc + uc[k] * vc[k] in acc
                       , u, v, 0f32)
           , iota(q))
     , iota(m))
