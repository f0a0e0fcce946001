import torch


def torch_twin(x, m):
    n = x.shape[0]
    out = torch.empty_like(x)
    rows = max(1, (1 << 27) // max(1, n))  # sheets a block: <= 1 GiB a temporary
    for i in range(0, n, rows):
        d = x - x[i:i + rows, None]
        f = d * m
        out[i:i + rows] = f.div_(d.abs_().add_(1e-6)).sum(1)
    return out
