import torch


def torch_twin(M):
    k = M.shape[1] // 2
    return torch.kthvalue(M, k + 1, dim=1).values
