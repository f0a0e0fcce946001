"""The same convolution in PyTorch, as a user would call it: cuDNN's
depthwise conv1d (a group a channel), zero padding of 15 each side."""
from torch.nn import functional as nnf


def torch_twin(X, W):
    return nnf.conv1d(X[None], W[:, None, :], padding=15, groups=X.shape[0])[0]
