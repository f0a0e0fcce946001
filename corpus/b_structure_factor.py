import torch


def torch_twin(qx, qy, qz, rx, ry, rz):
    q = torch.stack([qx, qy, qz], 1)
    r = torch.stack([rx, ry, rz], 0)  # (3, na)
    nq, na = q.shape[0], r.shape[1]
    out = torch.empty(nq, dtype=torch.float32, device=qx.device)
    rows = max(1, (1 << 28) // max(1, na))  # wave vectors a block: <= 1 GiB a temporary
    for i in range(0, nq, rows):
        ph = q[i:i + rows] @ r
        re = torch.cos(ph).sum(1)
        im = ph.sin_().sum(1)
        out[i:i + rows] = (re * re + im * im) / float(na)
    return out
