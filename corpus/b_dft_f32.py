import torch


def torch_twin(nf, re, im):
    # The direct DFT at bins 0 .. nf-1 (phase (f t) mod n) is the FFT's bin f mod n.
    n = re.shape[0]
    spec = torch.fft.fft(torch.complex(re, im))
    bins = spec[torch.arange(nf, device=re.device) % n]
    return bins.real.contiguous(), bins.imag.contiguous()
