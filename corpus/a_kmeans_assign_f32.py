import torch


def torch_twin(X, C):
    # squared distances as the program forms them (differences, not |x|^2 - 2x.c + |c|^2)
    D = (X[:, None, :] - C[None, :, :]).square_().sum(dim=2)
    bd, best = D.min(dim=1)  # first minimum on ties, as the strict < keeps it
    found = bd < 3.0e38
    best = torch.where(found, best, 0).to(torch.int32)
    bd = torch.where(found, bd, 3.0e38)
    return best, bd
