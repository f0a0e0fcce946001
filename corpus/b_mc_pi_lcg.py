from functools import lru_cache

import torch

STEPS = 8000
A, C = 1103515245, 12345


def _signed32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


@lru_cache(maxsize=None)
def _jumps(device):
    """s_k = A^k s_0 + C (A^(k-1) + ... + 1) mod 2^32 for k = 1 .. 2 STEPS: every state of the LCG
    from the seed at once, as int32 (multiplier, increment) pairs (made once a device)."""
    mul, inc, out = 1, 0, []
    for _ in range(2 * STEPS):
        mul, inc = (mul * A) & 0xFFFFFFFF, (inc * A + C) & 0xFFFFFFFF
        out.append((_signed32(mul), _signed32(inc)))
    return torch.tensor(out, dtype=torch.int32, device=device)


def _unit(s):
    # (s < 0 ? -(s + 1) : s) / 128 / 2^24: -(s + 1) is ~s, and the quotient of a value >= 0 a shift
    return ((s ^ (s >> 31)) >> 7).to(torch.float32).mul_(1.0 / 16777216.0)


def torch_twin(seeds):
    jumps = _jumps(seeds.device)
    mx, cx = jumps[0::2, 0], jumps[0::2, 1]  # the first draw of step t is state 2t + 1
    my, cy = jumps[1::2, 0], jumps[1::2, 1]
    hits = torch.empty(seeds.shape[0], dtype=torch.int64, device=seeds.device)
    rows = max(1, (1 << 27) // STEPS)  # seeds a block: <= 512 MiB a temporary
    for i in range(0, seeds.shape[0], rows):
        s = seeds[i:i + rows, None]
        x = _unit(s * mx + cx)
        y = _unit(s * my + cy)
        hits[i:i + rows] = (x.square_().add_(y.square_()) < 1.0).sum(1)
    return 4.0 * hits.to(torch.float32) / 8000.0
