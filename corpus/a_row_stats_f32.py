import torch


def torch_twin(A):
    return A.sum(dim=1), torch.linalg.vector_norm(A, dim=1), A.amax(dim=1)
