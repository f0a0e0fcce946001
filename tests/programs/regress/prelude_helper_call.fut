-- A helper called in the host prelude is inlined there as it is in the kernel's body
-- (it was an internal error in stage `lower`).
fun f32 twice(f32 s) = s * 2f32
fun [f32, n] main(f32 s, [f32, n] xs) =
  let t = twice(s) in
  map(fn f32 (f32 a) => a + t, xs)
