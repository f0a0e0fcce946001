import torch


def torch_twin(X, w):
    return X * (w / torch.linalg.vector_norm(w))
