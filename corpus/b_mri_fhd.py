import torch


def torch_twin(x, y, z, kx, ky, kz, phiR, phiI, dR, dI):
    # rho = conj(phi) d; FhD(v) = sum_k rho_k exp(i arg_k(v)): the phases as a (voxels x k) product,
    # then the complex sum as two real matrix products with (Re rho, Im rho).
    rr = phiR * dR + phiI * dI
    ri = phiR * dI - phiI * dR
    rho = torch.stack([rr, ri], 1)  # (nk, 2)
    pts = torch.stack([x, y, z], 1)
    ks = torch.stack([kx, ky, kz], 0)  # (3, nk)
    nx, nk = pts.shape[0], ks.shape[1]
    re = torch.empty(nx, dtype=torch.float32, device=x.device)
    im = torch.empty_like(re)
    rows = max(1, (1 << 28) // max(1, nk))  # voxels a block: <= 1 GiB a temporary
    for i in range(0, nx, rows):
        arg = (pts[i:i + rows] @ ks).mul_(6.2831853)
        c = torch.cos(arg) @ rho
        s = torch.sin(arg) @ rho
        re[i:i + rows] = c[:, 0] - s[:, 1]
        im[i:i + rows] = s[:, 0] + c[:, 1]
    return re, im
