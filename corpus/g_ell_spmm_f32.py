import torch


def torch_twin(cols, vals, B):
    n, w = cols.shape
    live = cols >= 0  # negative column index = padding slot
    rows = torch.arange(n, device=cols.device)[:, None].expand(n, w)
    A = torch.sparse_coo_tensor(
        torch.stack([rows[live], cols[live].long()]), vals[live], (n, B.shape[0])
    )
    return torch.sparse.mm(A, B)
