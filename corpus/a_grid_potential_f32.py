import torch


def torch_twin(nx, ny, h, cx, cy, q):
    dev = cx.device
    px = h * torch.arange(nx, device=dev, dtype=torch.float32)
    py = h * torch.arange(ny, device=dev, dtype=torch.float32)
    dx2 = (px[:, None] - cx[None, :]).square()  # (nx, k)
    dy2 = (py[:, None] - cy[None, :]).square()  # (ny, k)
    inv = (dx2[None, :, :] + dy2[:, None, :]).add_(1e-4).rsqrt_()  # (ny, nx, k)
    return inv @ q
