fun [[f32, m], n] main([[f32, m], n] AA, [[int, p],n] inds_nhbs) =
map( fn [f32,m] ([f32,m] A, int i) => -- Kernel's first parallel dimension
map( fn f32 (f32 a) => -- Kernel's second parallel dimension
streamSeq( fn f32 (int kk1, [int, chunk1] inds_nhbs, f32 acc1) =>
loop (acc1) = for k1 < chunk1 do
let ind = inds_nhbs[i, k1] in
let invar_AArow = AA[ind] in
streamSeq( fn f32 (int kk2, [int, chunk2] invar_AArow_chunk, f32 acc2) =>
loop (acc2) = for k2 < chunk2 do
acc2 + invar_AArow_chunk[k2] * 2.0f32
in acc2
, invar_AArow, acc1)
in acc1
, iota(inds_nhbs), 0f32)
, A)
, zip(AA, iota(n)))
