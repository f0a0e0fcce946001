import torch


def torch_twin(n, w, x):
    # Window sums as differences of prefix sums; the window maximum by van Herk / Gil-Werman: running
    # maxima forwards and backwards inside blocks of w, the window [i, i+w) the max of the two.
    dev = x.device
    if w <= 0:  # an empty window: sums 0, mean 0/w, max x[i]
        zero = torch.zeros(n, dtype=x.dtype, device=dev)
        return zero / w, zero.clone(), x[:n].clone()
    csum = torch.zeros(x.shape[0] + 1, dtype=x.dtype, device=dev)
    csq = torch.zeros_like(csum)
    torch.cumsum(x, 0, out=csum[1:])
    torch.cumsum(x * x, 0, out=csq[1:])
    s = csum[w:w + n] - csum[:n]
    s2 = csq[w:w + n] - csq[:n]
    nblk = -(-x.shape[0] // w)
    blocks = torch.full((nblk * w,), float("-inf"), dtype=x.dtype, device=dev)
    blocks[:x.shape[0]] = x
    blocks = blocks.view(nblk, w)
    fwd = blocks.cummax(1).values.view(-1)
    bwd = blocks.flip(1).cummax(1).values.flip(1).reshape(-1)
    mx = torch.maximum(bwd[:n], fwd[w - 1:w - 1 + n])
    mean = s / w
    var = s2 / w - mean * mean
    return mean, torch.where(var > 0.0, var, 0.0).sqrt_(), mx
