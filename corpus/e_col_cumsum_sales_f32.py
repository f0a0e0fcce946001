import torch


def torch_twin(X):
    total = torch.cumsum(X, dim=0)
    days = torch.arange(1, X.shape[0] + 1, device=X.device, dtype=X.dtype)
    return total, X - total / days[:, None]
