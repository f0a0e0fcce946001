import torch


def torch_twin(gx, gy, bw, sx, sy):
    # The Gaussian separates: exp(c (dx^2 + dy^2)) = exp(c dx^2) exp(c dy^2), a matrix product over samples.
    ns = sx.shape[0]
    c = -0.5 / (bw * bw)
    norm = 1.0 / (ns * 6.283185307179586 * bw * bw)
    dev = sx.device
    px = (torch.arange(gx, device=dev, dtype=torch.float64) + 0.5) / gx
    py = (torch.arange(gy, device=dev, dtype=torch.float64) + 0.5) / gy
    ex = (px[:, None] - sx).square_().mul_(c).exp_()  # (gx, ns)
    ey = (py[:, None] - sy).square_().mul_(c).exp_()  # (gy, ns)
    return (ey @ ex.T).mul_(norm)
