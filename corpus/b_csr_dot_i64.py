import torch


def torch_twin(rowptr, rowlen, ia, ib, a, b):
    # Every entry's product once, then each row's sum as a difference of prefix sums (exact in i64,
    # wrapping included).
    prod = a[ia].long() * b[ib].long()
    csum = torch.zeros(prod.shape[0] + 1, dtype=torch.int64, device=a.device)
    torch.cumsum(prod, 0, out=csum[1:])
    end = rowptr + rowlen.clamp(0, 48)
    return csum[end] - csum[rowptr]
