import torch


def torch_twin(nb, lo, hi, data):
    dev = data.device
    f32 = torch.float32
    lo_t = torch.tensor(lo, dtype=f32, device=dev)
    hi_t = torch.tensor(hi, dtype=f32, device=dev)
    # the bin edges exactly as the program rounds them in f32
    width = (hi_t - lo_t) / nb
    b = torch.arange(nb, device=dev, dtype=f32)
    a = lo_t + width * b
    z = torch.where(b == nb - 1, hi_t, a + width)
    # count of a <= x < z = #(x < z) - #(x < a)
    xs = torch.sort(data).values
    below_z = torch.searchsorted(xs, z)
    below_a = torch.searchsorted(xs, a)
    return (below_z - below_a).clamp_min_(0)
