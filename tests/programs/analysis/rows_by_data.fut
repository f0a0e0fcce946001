-- The first operand's row is picked through a permutation read from memory
-- (`A[p]`, `p` an element of `perm`): any thread can read another thread's
-- `perm` entry, so a 2-D block copies the rows of all its threads
-- (`A[perm[base + r]]`) and the product is register-tiled as mm is.
-- block: 1,0
-- stream: 13:15 tiled 2-D
-- input: 13:15 uc invariant=1 shared
-- input: 13:15 vc invariant=0 shared
fun [[f32, q], m] main([int, m] perm, [[f32, n], m] A, [[f32, n], q] Bt) =
  map(fn [f32, q] (int p) =>
        map(fn f32 ([f32, n] v) =>
              let u = A[p] in
              streamSeq(fn f32 (int kk, [f32, c] uc, [f32, c] vc, f32 acc) =>
                          loop (acc) = for k < c do acc + uc[k] * vc[k] in acc
                       , u, v, 0f32)
           , Bt)
     , perm)
