-- MRI-FHD: F^H d at each voxel: rho_k = conj(phi_k) * d_k, then
-- FhD(x) = sum_k rho_k * exp(i 2 pi k.x). Seven arrays indexed in a loop. f32.
fun (f32, f32) cmul(f32 ar, f32 ai, f32 br, f32 bi) = (ar*br - ai*bi, ar*bi + ai*br)

fun ([f32, nx], [f32, nx]) main([f32, nx] x, [f32, nx] y, [f32, nx] z,
                                [f32, nk] kx, [f32, nk] ky, [f32, nk] kz,
                                [f32, nk] phiR, [f32, nk] phiI, [f32, nk] dR, [f32, nk] dI) =
  map(fn (f32, f32) (int v) =>
        let xv = x[v] in
        let yv = y[v] in
        let zv = z[v] in
        loop (re = 0f32, im = 0f32) = for k < nk do
          let (rr, ri) = cmul(phiR[k], 0f32 - phiI[k], dR[k], dI[k]) in
          let arg = 6.2831853f32 * (kx[k]*xv + ky[k]*yv + kz[k]*zv) in
          let (tr, ti) = cmul(rr, ri, cos(arg), sin(arg)) in
          (re + tr, im + ti)
        in (re, im)
     , iota(nx))
