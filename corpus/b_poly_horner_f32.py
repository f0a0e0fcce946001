import math

import torch


def torch_twin(x, coef):
    # sum_k coef[k] t^(deg-1-k), blocked: the coefficients in nb blocks of b (leading zeros pad the
    # first); each block's polynomial at every point is a matrix product with the powers t^(b-1) .. t^0,
    # and the blocks are weighted by the powers t^(b(nb-1)) .. t^0.
    deg = coef.shape[0]
    b = max(1, math.isqrt(max(deg - 1, 0)) + 1)
    nb = -(-deg // b)
    c = torch.cat([coef.new_zeros(nb * b - deg), coef]).view(nb, b)
    e = torch.arange(max(b, nb) - 1, -1, -1, dtype=x.dtype, device=x.device)
    blocks = torch.pow(x[:, None], e[-b:]) @ c.T  # (n, nb)
    return torch.linalg.vecdot(blocks, torch.pow(x[:, None], e[-nb:] * b))
