import torch


def torch_twin(t, cpos, cw, qn, qw):
    nc, nq = cpos.shape[0], qn.shape[0]
    out = torch.empty_like(t)
    rows = max(1, (1 << 28) // max(1, nc * nq))  # targets a block: <= 1 GiB a temporary
    for i in range(0, t.shape[0], rows):
        base = t[i:i + rows, None] - cpos  # (rows, nc)
        u = base[..., None] - qn  # (rows, nc, nq)
        inner = u.square_().neg_().exp_() @ qw  # the quadrature over nodes
        out[i:i + rows] = inner @ cw
    return out
