fun [f32, n] main(f32 eps, [f32, n] bodies) =
map( fn f32 (f32 body) => -- 1-dim Kernel
streamSeq( fn f32 (int kk, [f32, chunk] bodies_chunk, f32 acc) =>
loop (acc) = for k < chunk do
acc + (bodies_chunk[i] - body)
in acc
, bodies, 0f32)
, bodies)
