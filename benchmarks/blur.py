"""The same pass in PyTorch: cuDNN's conv2d with a 15 x 1 kernel, after
padding 7 rows above and below with copies of the edge rows."""
from torch.nn import functional as nnf


def torch_twin(img, wts):
    p = nnf.pad(img[None, None], (0, 0, 7, 7), mode="replicate")
    return nnf.conv2d(p, wts.view(1, 1, 15, 1))[0, 0]
