import struct

import torch


def _f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def torch_twin(radius, x, y, z):
    r2 = _f32(radius * radius)
    far = _f32(1e30)
    n = x.shape[0]
    cnt = torch.empty(n, dtype=torch.int32, device=x.device)
    best = torch.empty_like(x)
    rows = max(1, (1 << 28) // max(1, n))  # points a block: <= 1 GiB a temporary
    for i in range(0, n, rows):
        dx = x - x[i:i + rows, None]
        dy = y - y[i:i + rows, None]
        dz = z - z[i:i + rows, None]
        d2 = dx.square_().add_(dy.square_()).add_(dz.square_())  # exact per pair, as the program
        cnt[i:i + rows] = (d2 < r2).sum(1)
        best[i:i + rows] = d2.masked_fill_(d2 <= 0.0, far).amin(1).clamp_max_(far)
    return cnt - 1, best.sqrt_()
