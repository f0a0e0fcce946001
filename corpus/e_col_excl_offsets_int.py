import torch


def torch_twin(C):
    offsets = torch.cumsum(C, dim=0, dtype=torch.int32) - C
    nonempty = (C > 0).to(torch.int32)
    used = torch.cumsum(nonempty, dim=0, dtype=torch.int32) - nonempty
    return offsets, used
