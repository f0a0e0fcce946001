-- Parboil's MRI-Q: for every voxel x, Q(x) = sum over k-space samples k of
-- |phi_k|^2 * e^(i 2 pi k.x), as its real and imaginary parts. `phiMag` is
-- what Parboil's ComputePhiMag kernel gives (phiR^2 + phiI^2). The sample
-- arrays are invariant to the voxel dimension.
fun ([f32, nx], [f32, nx])
main([f32, nk] kx, [f32, nk] ky, [f32, nk] kz, [f32, nk] phiMag,
     [f32, nx] x, [f32, nx] y, [f32, nx] z) =
  map(fn (f32, f32) (f32 xi, f32 yi, f32 zi) =>
        streamSeq(fn (f32, f32) (int kk, [f32, c] kxc, [f32, c] kyc, [f32, c] kzc, [f32, c] pm,
                                 f32 qr, f32 qi) =>
                    loop (qr, qi) = for k < c do
                      let arg = 6.2831853f32 * (kxc[k] * xi + kyc[k] * yi + kzc[k] * zi) in
                      (qr + pm[k] * cos(arg), qi + pm[k] * sin(arg))
                    in (qr, qi)
                 , kx, ky, kz, phiMag, 0f32, 0f32)
     , x, y, z)
