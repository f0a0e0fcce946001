"""The same stencil in PyTorch: sums of shifted slices of a zero-padded copy
(a skipped neighbour adds 0), which torch.compile fuses into one kernel."""
from torch.nn import functional as nnf


def torch_twin(u, c):
    nz, ny, nx = u.shape
    p = nnf.pad(u[None, None], (4, 4, 4, 4, 4, 4))[0, 0]
    acc = c[0] * u
    for r in range(1, 5):  # the four radii, whole-tensor slices each
        s = (p[4 - r:4 - r + nz, 4:4 + ny, 4:4 + nx] + p[4 + r:4 + r + nz, 4:4 + ny, 4:4 + nx]
             + p[4:4 + nz, 4 - r:4 - r + ny, 4:4 + nx] + p[4:4 + nz, 4 + r:4 + r + ny, 4:4 + nx]
             + p[4:4 + nz, 4:4 + ny, 4 - r:4 - r + nx] + p[4:4 + nz, 4:4 + ny, 4 + r:4 + r + nx])
        acc = acc + c[r] * s
    return acc
