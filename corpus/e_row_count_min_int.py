import torch


def torch_twin(R, t):
    count = torch.cumsum(R >= t, dim=1, dtype=torch.int32)
    low = torch.cummin(R, dim=1).values
    return count, low
