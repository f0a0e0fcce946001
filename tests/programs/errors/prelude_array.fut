-- error: 4:11: the host prelude may only bind transposes and scalars; `r` would be [f32, m]
-- hint: compute it inside the kernel
fun [f32, n] main([[f32, m], n] A) =
  let r = A[0] in
  map(fn f32 ([f32, m] a) => a[0] + r[0], A)
