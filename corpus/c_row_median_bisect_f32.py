import torch


def torch_twin(X):
    # The program's exact quantity: 30 bisection steps on [row min, row max],
    # vectorised over rows (the Python loop is over the 30 steps only).
    half = X.shape[1] // 2
    lo = X.amin(dim=1)
    hi = X.amax(dim=1)
    for _ in range(30):
        mid = (lo + hi) * 0.5
        up = (X < mid.unsqueeze(1)).sum(dim=1) <= half
        lo = torch.where(up, mid, lo)
        hi = torch.where(up, hi, mid)
    return (lo + hi) * 0.5
