-- MRI-Q: for each voxel, Q = sum_k |phi_k|^2 * exp(i 2 pi k.x), with the
-- k-space trajectory and phi streamed as five arrays. f32 sin/cos.
fun ([f32, nx], [f32, nx]) main([f32, nx] x, [f32, nx] y, [f32, nx] z,
                                [f32, nk] kx, [f32, nk] ky, [f32, nk] kz,
                                [f32, nk] phiR, [f32, nk] phiI) =
  let twopi = 6.2831853f32 in
  map(fn (f32, f32) (f32 xv, f32 yv, f32 zv) =>
        streamSeq(fn (f32, f32) (int k0, [f32, ck] kxs, [f32, ck] kys, [f32, ck] kzs,
                                 [f32, ck] pr, [f32, ck] pi, f32 qr, f32 qi) =>
                    loop (qr, qi) = for k < ck do
                      let mag = pr[k]*pr[k] + pi[k]*pi[k] in
                      let arg = twopi * (kxs[k]*xv + kys[k]*yv + kzs[k]*zv) in
                      (qr + mag * cos(arg), qi + mag * sin(arg))
                    in (qr, qi)
                 , kx, ky, kz, phiR, phiI, 0f32, 0f32)
     , zip(x, y, z))
