import torch


def torch_twin(no, a, b):
    # sum_j a[off+j] b[j] for every offset at once through the FFT (no index off + j passes na, so a
    # transform of >= na points does not wrap); sum_j a[off+j]^2 from prefix sums.
    na, nb = a.shape[0], b.shape[0]
    size = 1 << max(0, na - 1).bit_length()
    sab = torch.fft.irfft(torch.fft.rfft(a, n=size) * torch.fft.rfft(b, n=size).conj(), n=size)[:no]
    csq = torch.zeros(na + 1, dtype=a.dtype, device=a.device)
    torch.cumsum(a * a, 0, out=csq[1:])
    saa = csq[nb:nb + no] - csq[:no]
    sbb = (b * b).sum()
    return sab / torch.sqrt(saa * sbb + 1e-30)
