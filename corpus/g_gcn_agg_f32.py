import torch


def torch_twin(X, deg, nbr):
    n, K = nbr.shape
    rows = torch.arange(n, device=nbr.device).repeat_interleave(K)
    cols = nbr.reshape(-1).long()  # sparse COO indices must be int64
    norm = torch.rsqrt(deg[rows] * deg[cols])
    A = torch.sparse_coo_tensor(torch.stack([rows, cols]), norm, (n, n))
    return torch.sparse.mm(A, torch.relu(X))
