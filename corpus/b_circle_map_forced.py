import struct

import torch


def _f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def torch_twin(amp, omega, kpar, force):
    # A nonlinear recurrence in time: a loop over the nt steps, all (omega, K) points at once.
    nt = force.shape[0]
    two_pi = _f32(6.2831853)
    kc = kpar * _f32(0.15915494)
    push = amp * force
    th = torch.zeros_like(omega)
    wind = torch.zeros_like(omega)
    s = torch.empty_like(omega)
    fl = torch.empty_like(omega)
    for p in push.unbind(0):
        torch.mul(th, two_pi, out=s).sin_().mul_(kc)
        th.add_(omega).sub_(s).add_(p)
        torch.floor(th, out=fl)
        th.sub_(fl)
        wind.add_(fl)
    return (wind + th) / float(nt)
