import torch


def torch_twin(X):
    return torch.kthvalue(X, 2, dim=1).values
