import torch


def torch_twin(nx, ny, nz, spacing, ax, ay, az, aq):
    dev = ax.device
    grid = torch.arange(max(nx, ny, nz), device=dev, dtype=torch.float32) * spacing
    dx2 = (grid[:nx, None] - ax).square_()  # (nx, na)
    dy2 = (grid[:ny, None] - ay).square_()
    dz2 = (grid[:nz, None] - az).square_()
    dxy = dx2[None] + dy2[:, None]  # (ny, nx, na)
    out = torch.empty(nz, ny, nx, dtype=torch.float32, device=dev)
    planes = max(1, (1 << 28) // max(1, dxy.numel()))  # z planes a block: <= 1 GiB a temporary
    for k in range(0, nz, planes):
        r2 = dxy[None] + dz2[k:k + planes, None, None]
        out[k:k + planes] = r2.add_(0.01).rsqrt_().mul_(aq).sum(-1)
    return out
