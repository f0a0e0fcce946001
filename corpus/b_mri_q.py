import torch


def torch_twin(x, y, z, kx, ky, kz, phiR, phiI):
    mag = phiR * phiR + phiI * phiI
    pts = torch.stack([x, y, z], 1)
    ks = torch.stack([kx, ky, kz], 0)  # (3, nk)
    nx, nk = pts.shape[0], ks.shape[1]
    qr = torch.empty(nx, dtype=torch.float32, device=x.device)
    qi = torch.empty_like(qr)
    rows = max(1, (1 << 28) // max(1, nk))  # voxels a block: <= 1 GiB a temporary
    for i in range(0, nx, rows):
        arg = (pts[i:i + rows] @ ks).mul_(6.2831853)
        qr[i:i + rows] = torch.cos(arg) @ mag
        qi[i:i + rows] = arg.sin_() @ mag
    return qr, qi
