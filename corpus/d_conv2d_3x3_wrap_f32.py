from torch.nn import functional as nnf


def torch_twin(img, k):
    # Circular padding by one on every side = periodic boundaries; conv2d correlates,
    # so out[y, x] = sum k[dy, dx] * img[(y + dy - 1) % h, (x + dx - 1) % w].
    p = nnf.pad(img[None, None], (1, 1, 1, 1), mode="circular")
    return nnf.conv2d(p, k.view(1, 1, 3, 3))[0, 0]
