import torch
import torch.nn.functional as F


def torch_twin(v, W):
    # a correlation with zero padding; keep cuDNN from using TF32
    prev = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        out = F.conv3d(v[None, None], W[None, None], padding=1)
    finally:
        torch.backends.cudnn.allow_tf32 = prev
    return out[0, 0]
