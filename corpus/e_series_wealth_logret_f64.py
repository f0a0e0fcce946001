import torch


def torch_twin(G):
    return torch.cumprod(G, dim=1), torch.cumsum(torch.log(G), dim=1)
