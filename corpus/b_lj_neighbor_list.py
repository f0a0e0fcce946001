import struct

import torch


def _f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def torch_twin(x, y, z, nbr, nnum):
    sig2, rc2, floor2 = _f32(0.01), _f32(0.09), _f32(0.0064)
    n, maxn = nbr.shape
    dev = x.device
    live = (torch.arange(maxn, device=dev) < nnum[:, None]) & (nbr != torch.arange(n, device=dev)[:, None])
    dx = x[:, None] - x[nbr]
    dy = y[:, None] - y[nbr]
    dz = z[:, None] - z[nbr]
    r2 = (dx * dx + dy * dy + dz * dz).clamp_min_(floor2)
    sr2 = sig2 / r2
    sr6 = sr2 * sr2 * sr2
    f = 24.0 * sr6 * (2.0 * sr6 - 1.0) / r2
    f = torch.where(live & (r2 < rc2), f, 0.0)
    return (f * dx).sum(1), (f * dy).sum(1), (f * dz).sum(1)
