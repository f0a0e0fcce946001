import torch


def torch_twin(nl, x):
    # r[lag] = sum_{i < n-lag} x[i] x[i+lag] / (n - lag): a linear autocorrelation, through the FFT
    # (zero padding to >= n + nl - 1 points, so that no lag below nl wraps around).
    n = x.shape[0]
    size = 1 << max(0, n + nl - 2).bit_length()
    spec = torch.fft.rfft(x, n=size)
    sums = torch.fft.irfft(spec.real.square() + spec.imag.square(), n=size)[:nl]
    lag = torch.arange(nl, device=x.device)
    sums = torch.where(lag < n, sums, 0.0)  # lags past the signal sum nothing
    return sums / (n - lag).to(torch.float32)
