"""The libraries tiler is compared with, where one does the same work.

A benchmark's `.toml` names the operation (`[library] op = "matmul"`,
`operands = ["A", "B0"]`); `library_row` runs it with cuBLAS through
PyTorch or CuPy, whichever imports, with TF32 off (a TF32 product would be
a different, less precise computation), checks it and times it.
"""
from __future__ import annotations


def library_row(lib: dict, inputs: dict, repeat: int, reference, compare):
    from . import Row

    if lib.get("op") != "matmul":
        return None
    a, b = (_operand(inputs, name) for name in lib["operands"])
    for backend in (_torch, _cupy):
        found = backend(a, b, repeat)
        if found is not None:
            label, out, times = found
            verdict = compare((out,), reference, None, f"{label} against untiled")
            return Row(label, "-", times, check=verdict)
    return None


def _operand(inputs: dict, name: str):
    """An input by name; `NAME.T` is its transpose, a view as a library takes it."""
    return inputs[name[:-2]].T if name.endswith(".T") else inputs[name]


def _torch(a, b, repeat):
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    torch.backends.cuda.matmul.allow_tf32 = False
    ta, tb = (_torch_view(torch, x) for x in (a, b))
    out = ta @ tb
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        ta @ tb
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return "cuBLAS SGEMM (PyTorch, TF32 off)", out.cpu().numpy(), times


def _torch_view(torch, x):
    """On the device as the library would hold it: a transposed view stays a view."""
    if not x.flags.c_contiguous and x.T.flags.c_contiguous:
        return torch.from_numpy(x.T).cuda().T
    return torch.from_numpy(x).cuda()


def _cupy(a, b, repeat):
    try:
        import cupy
    except ImportError:
        return None
    ca, cb = cupy.asarray(a), cupy.asarray(b)
    out = ca @ cb
    times = []
    for _ in range(repeat):
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        ca @ cb
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end))
    return "cuBLAS SGEMM (CuPy)", cupy.asnumpy(out), times


__all__ = ["library_row"]
