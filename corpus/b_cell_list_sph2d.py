import struct

import torch


def _f32(v):
    """A Python number rounded to float32, as the program computes its scalars."""
    return struct.unpack("f", struct.pack("f", v))[0]


def torch_twin(x, y, mass, cells, ccount):
    ncx = cells.shape[0]
    h = _f32(1.0 / _f32(ncx))
    h2 = _f32(h * h)
    den = _f32(3.14159265)
    for _ in range(4):
        den = _f32(den * h2)
    norm = _f32(4.0 / den)
    cx = torch.clamp_max((x / h).to(torch.int32), ncx - 1)
    cy = torch.clamp_max((y / h).to(torch.int32), ncx - 1)
    nb = torch.arange(9, device=x.device, dtype=torch.int32)
    gy = cy[:, None] + (nb // 3 - 1)  # (n, 9): the 3 x 3 cells around the particle's own
    gx = cx[:, None] + (nb % 3 - 1)
    inside = (gx >= 0) & (gx < ncx) & (gy >= 0) & (gy < ncx)
    gy = gy.clamp(0, ncx - 1)
    gx = gx.clamp(0, ncx - 1)
    count = torch.where(inside, ccount[gy, gx], 0)  # (n, 9) members visited in each cell
    j = cells[gy, gx]  # (n, 9, cap) particle ids
    member = torch.arange(cells.shape[2], device=x.device) < count[..., None]
    dx = x[:, None, None] - x[j]
    dy = y[:, None, None] - y[j]
    r2 = dx.square_().add_(dy.square_())
    t = torch.sub(h2, r2, out=dy)  # dy's memory, no longer needed
    w = t.square().mul_(t)  # poly6: (h2 - r2)^3
    w = torch.where(member & (r2 < h2), mass[j] * w, 0.0)
    return norm * w.sum(dim=(1, 2))
