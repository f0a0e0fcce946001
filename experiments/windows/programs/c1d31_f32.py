from torch.nn import functional as nnf


def torch_twin(X, W):
    return nnf.conv1d(X[None], W[:, None, :], padding=15, groups=X.shape[0])[0]
