import torch


def torch_twin(ell, T, X, w):
    m, n = T.shape[0], X.shape[0]
    out = torch.empty(m, dtype=T.dtype, device=T.device)
    rows = max(1, (1 << 27) // max(1, n))  # test rows a block: <= 1 GiB a temporary
    for i in range(0, m, rows):
        s = torch.cdist(T[i:i + rows], X).mul_(2.23606797749979 / ell)
        poly = (s * s).div_(3.0).add_(s).add_(1.0)
        out[i:i + rows] = poly.mul_(s.neg_().exp_()) @ w  # Matern 5/2: (1 + s + s^2/3) exp(-s)
    return out
