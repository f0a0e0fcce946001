import torch


def torch_twin(tx, ty, tz, sx, sy, sz, sm):
    # |t - s|^2 = |t|^2 + |s|^2 - 2 t.s as one f64 matrix product of augmented coordinates (f64 keeps
    # the cancellation far below the softening 1e-4), then phi = -(1/r) @ m.
    t = torch.stack([tx, ty, tz], 1)
    s = torch.stack([sx, sy, sz], 1)
    one_t, one_s = torch.ones_like(tx)[:, None], torch.ones_like(sx)[:, None]
    ta = torch.cat([-2.0 * t, t.square().sum(1, keepdim=True), one_t], 1)
    sa = torch.cat([s, one_s, s.square().sum(1, keepdim=True)], 1)
    nt, ns = t.shape[0], s.shape[0]
    out = torch.empty(nt, dtype=torch.float64, device=tx.device)
    rows = max(1, (1 << 27) // max(1, ns))  # targets a block: <= 1 GiB a temporary
    for i in range(0, nt, rows):
        r2 = ta[i:i + rows] @ sa.T
        out[i:i + rows] = r2.clamp_min_(0.0).add_(1e-4).rsqrt_() @ sm
    return out.neg_()
