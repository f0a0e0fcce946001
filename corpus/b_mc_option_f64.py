import torch


def torch_twin(s0, rate, strike, vol, mat, z):
    npaths = z.shape[0]
    drift = (rate - 0.5 * vol * vol) * mat
    diff = vol * mat.sqrt()
    pay = torch.empty_like(strike)
    itm = torch.empty_like(strike)
    rows = max(1, (1 << 27) // max(1, npaths))  # options a block: <= 1 GiB a temporary
    for i in range(0, strike.shape[0], rows):
        k = strike[i:i + rows, None]
        st = torch.addcmul(drift[i:i + rows, None], diff[i:i + rows, None], z).exp_().mul_(s0)
        itm[i:i + rows] = (st > k).sum(1)
        pay[i:i + rows] = st.sub_(k).clamp_min_(0.0).sum(1)
    return torch.exp(-rate * mat) * pay / npaths, itm / npaths
