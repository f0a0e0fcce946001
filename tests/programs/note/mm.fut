fun [[f32,q],m] main([[f32,n],m] A, [[f32,q],n] B0) =
let B = transpose(B0) in
map(fn [f32,q] ( [f32,n] a ) => -- Kernel's first parallel dimension
map(fn f32 ( [f32,n] b ) => -- Kernel's second parallel dimension
streamSeq(fn f32 (int kk, [f32,chunk] a_c, [f32,chunk] b_c, int acc) =>
loop (acc) = for k < chunk do
acc + a_c[k]*b_c[k]
in acc
, a, b, 0f32 )
, B)
, A )
