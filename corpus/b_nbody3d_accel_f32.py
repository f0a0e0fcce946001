import torch


def torch_twin(px, py, pz, mass):
    n = px.shape[0]
    acc = [torch.empty_like(px) for _ in range(3)]
    rows = max(1, (1 << 28) // max(1, n))  # bodies a block: <= 1 GiB a temporary
    for i in range(0, n, rows):
        d = [p - p[i:i + rows, None] for p in (px, py, pz)]
        inv = (d[0] * d[0]).add_(d[1] * d[1]).add_(d[2] * d[2]).add_(0.0025).rsqrt_()
        s = mass * inv
        s.mul_(inv).mul_(inv)  # m_j / r^3
        for a, dk in zip(acc, d):
            a[i:i + rows] = torch.linalg.vecdot(s, dk)
    return tuple(acc)
