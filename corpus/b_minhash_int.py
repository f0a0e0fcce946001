import torch

LOW = 0x7FFFFFFF  # nonneg: a negative h + 2^31 is h with its sign bit cleared


def _fmix(x):
    a = x & LOW
    b = ((a + (a >> 16)) * -2048144789) & LOW  # int32 wraps, as the program's arithmetic does
    c = ((b + (b >> 13)) * -1028477387) & LOW
    return c + (c >> 16)


def torch_twin(ha, hb, keys):
    nh, n = ha.shape[0], keys.shape[0]
    mn = torch.empty(nh, dtype=torch.int32, device=keys.device)
    low = torch.empty_like(mn)
    rows = max(1, (1 << 27) // max(1, n))  # hash functions a block: <= 512 MiB a temporary
    for i in range(0, nh, rows):
        h = _fmix(ha[i:i + rows, None] * keys + hb[i:i + rows, None]) & LOW
        mn[i:i + rows] = h.amin(1)  # every h is <= 2^31 - 1, the fold's start
        low[i:i + rows] = (h < 2097152).sum(1)
    return mn, low
