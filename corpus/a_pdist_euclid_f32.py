import torch


def torch_twin(X, Y):
    return torch.cdist(X, Y)
