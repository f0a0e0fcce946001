import torch


def torch_twin(R, t, P):
    return torch.addmm(t, P, R.T)
