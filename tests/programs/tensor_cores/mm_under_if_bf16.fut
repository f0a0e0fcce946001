-- A bf16 product each point computes only when a scalar says so: under a
-- branch, the stream's accumulator is the branch's own, so the matrix
-- units (whose share is added once, at the body's top level) decline it
-- and the register-tiled kernel runs it on the CUDA cores.
fun [[f32, m], n] main(int mode, [[bf16, k], n] A, [[bf16, k], m] B) =
  map(fn [f32, m] ([bf16, k] a) =>
        map(fn f32 ([bf16, k] b) =>
              if mode > 0 then
                streamSeq(fn f32 (int kk, [bf16, c] ac, [bf16, c] bc, f32 acc) =>
                            loop (acc) = for j < c do acc + f32(ac[j]) * f32(bc[j]) in acc
                         , a, b, 0f32)
              else 1f32
           , B)
     , A)
