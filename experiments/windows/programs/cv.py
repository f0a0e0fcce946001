from torch.nn import functional as nnf


def torch_twin(img, filt):
    # out[i, j] = sum filt[r, k] * img[min(i + r, h-1), min(j + k, w-1)]: pad the bottom and right edges by 4
    p = nnf.pad(img[None, None], (0, 4, 0, 4), mode="replicate")
    return nnf.conv2d(p, filt[None, None])[0, 0]
