import torch


def torch_twin(frac, w, a):
    # 12 Newton steps, as the program takes; each evaluates f and f' for all points at once.
    target = frac * w.sum()
    x = torch.zeros_like(frac)
    for _ in range(12):
        e = torch.exp(-(x[:, None] * a)).mul_(w)  # (n, m): w_j exp(-a_j x)
        f = e.sum(1)
        df = -(e @ a)
        x = x - (f - target) / df
    return x
