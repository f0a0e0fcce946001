import torch


def torch_twin(X):
    m = X.shape[1]
    counts = torch.arange(1, m + 1, device=X.device, dtype=X.dtype)
    mean = torch.cumsum(X, dim=1) / counts
    peak = torch.cummax(X, dim=1).values
    return mean, X / peak
