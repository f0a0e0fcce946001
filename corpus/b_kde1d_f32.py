import struct

import torch


def _f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def torch_twin(h, xe, samples):
    ns = samples.shape[0]
    inv2h2 = _f32(0.5 / _f32(h * h))
    norm = _f32(1.0 / _f32(_f32(float(ns) * h) * _f32(2.5066283)))
    out = torch.empty_like(xe)
    rows = max(1, (1 << 28) // max(1, ns))  # evaluation points a block: <= 1 GiB a temporary
    for i in range(0, xe.shape[0], rows):
        u = xe[i:i + rows, None] - samples
        out[i:i + rows] = u.square_().mul_(inv2h2).neg_().exp_().sum(1)
    return out.mul_(norm)
