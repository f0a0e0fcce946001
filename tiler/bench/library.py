"""What tiler is compared with, where something else does the same work.

A benchmark's `.toml` names it in `[library]`:
- `op = "matmul"` or `"matvec"` with `operands = ["A", "B0"]`: cuBLAS (SGEMM,
  SGEMV) through PyTorch or CuPy, whichever imports, with TF32 off (a TF32
  product would be a different, less precise computation), checked against
  the untiled kernel and timed;
- `op = "softmax"`, `"layernorm"` or `"rowsum"` with `operands = ["X"]`:
  PyTorch's own kernel for the rows of X (`torch.softmax(X, dim=-1)`,
  `layer_norm` over the last dimension with eps 1e-5 and no affine part,
  `X.sum(dim=-1)`), checked and timed the same way;
- `op = "attention"` with `operands = ["Q", "K", "V"]`: PyTorch's
  `scaled_dot_product_attention(Q, K, V)` (its fused kernels; the scale
  1/sqrt of the head dimension), checked and timed the same way;
- `op = "copy"`: no library does the work, so the row is the time the
  benchmark's bytes (inputs read once, outputs written once) take at the
  device's copy bandwidth, measured in the same run with a device-to-device
  copy of its largest input (a copy reads and writes each byte once).
"""
from __future__ import annotations

import statistics

from ..workload import LIBRARY_OPS
from .rows import Row


def library_row(lib: dict, inputs: dict, repeat: int, reference, compare, moved: int,
                matrix_units: float | None = None, kinds: dict | None = None):
    """`moved`: the bytes the benchmark reads and writes, for `op = "copy"`;
    `matrix_units`: the tolerance of a product timed under --tensor-cores,
    which is then compared with cuBLAS allowed the same units (TF32 on);
    `kinds`: each parameter's element type, so that 16-bit operands (held as
    float32 here) reach the library as 16-bit tensors."""
    op = lib.get("op")
    if op == "copy":
        per_byte = _copy_bandwidth(max(inputs.values(), key=lambda a: a.nbytes), repeat)
        if per_byte is None:
            return None
        rate = 1e-6 / statistics.median(per_byte)  # GB/s from milliseconds a byte
        return Row(f"copy bandwidth, {rate:,.0f} GB/s: its bytes at that speed", "-",
                   [t * moved for t in per_byte], check="-")
    if not LIBRARY_OPS.get(op):
        return None
    operands = [_operand(inputs, name) for name in lib["operands"]]
    types = tuple((kinds or {}).get(name.removesuffix(".T")) for name in lib["operands"])
    narrow = types if any(k in NARROW_DTYPES for k in types) else None
    if matrix_units is not None and op not in ROW_OPS and any(k not in (None, "f32") for k in types):
        return None  # TF32 is f32's: a 16-bit or f64 product's library row is the same with it on
    backends = (_torch,) if op in ROW_OPS else (_torch, _cupy)
    tf32 = matrix_units is not None and op not in ROW_OPS
    for backend in backends:
        found = backend(op, operands, repeat, tf32, narrow)
        if found is not None:
            label, out, times = found
            label += _precision(op, types, tf32)
            verdict = compare((out,), reference, None, f"{label} against untiled", _tolerance(tf32 and matrix_units, narrow))
            return Row(f"{_named(LIBRARY_OPS[op], types)} ({label})", "-", times, check=verdict)
    return None


def _precision(op: str, types: tuple, tf32: bool) -> str:
    """What a product's label says of its precision: its 16-bit type, or
    whether an f32 one was allowed TF32 (nothing for f64 or a row's op)."""
    narrow = sorted({k for k in types if k in NARROW_DTYPES})
    if narrow:
        return f", {'/'.join(narrow)}"
    return "" if op in ROW_OPS or "f64" in types else f", TF32 {'on' if tf32 else 'off'}"


def _named(name: str, types: tuple) -> str:
    """cuBLAS's routine for the operands' type: SGEMM's name (f32) becomes
    DGEMM's for f64 and GEMM's (cublasGemmEx) for 16-bit ones."""
    if not name.startswith("cuBLAS S"):
        return name
    if "f64" in types:
        return name.replace("cuBLAS S", "cuBLAS D", 1)
    return name.replace("cuBLAS S", "cuBLAS ", 1) if any(k in NARROW_DTYPES for k in types) else name


def _operand(inputs: dict, name: str):
    """An input by name; `NAME.T` is its transpose, a view as a library takes it."""
    return inputs[name[:-2]].T if name.endswith(".T") else inputs[name]


def _product(torch, a, b):
    return a @ b


# each op as PyTorch computes it from the operands on the device; a product's label says TF32 is off
TORCH_OPS = {"matmul": _product, "matvec": _product,
             "softmax": lambda torch, x: torch.softmax(x, dim=-1),
             "layernorm": lambda torch, x: torch.nn.functional.layer_norm(x, x.shape[-1:], eps=1e-5),
             "rowsum": lambda torch, x: x.sum(dim=-1),
             "attention": lambda torch, q, k, v: torch.nn.functional.scaled_dot_product_attention(q, k, v)}
ROW_OPS = frozenset(TORCH_OPS) - {"matmul", "matvec"}  # PyTorch's own kernels; CuPy's would be other ones


NARROW_DTYPES = {"f16": "float16", "bf16": "bfloat16"}


def _tolerance(matrix_units, narrow: tuple | None) -> float | None:
    """The library's check: its TF32 sums within the matrix units' tolerance;
    its 16-bit results (cuBLAS rounds a 16-bit product's result to 16 bits)
    within that format's."""
    from ..workload.checks import NARROW_TOLERANCE

    looser = [matrix_units or 0.0] + [NARROW_TOLERANCE[k] for k in narrow or () if k in NARROW_TOLERANCE]
    return max(looser) or None


def _torch(op, operands, repeat, tf32: bool = False, narrow: tuple | None = None):
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    ts = [_torch_view(torch, x) for x in operands]
    if narrow:
        ts = [t.to(getattr(torch, NARROW_DTYPES[k])) if k in NARROW_DTYPES else t for t, k in zip(ts, narrow)]

    def work():
        return TORCH_OPS[op](torch, *ts)
    torch.backends.cuda.matmul.allow_tf32 = tf32
    try:
        out = work()
        return "PyTorch", (out.float() if out.dtype in (torch.float16, torch.bfloat16) else out).cpu().numpy(), \
            _torch_times(torch, work, repeat)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False


def _torch_times(torch, work, repeat) -> list[float]:
    work()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        work()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return times


def _torch_view(torch, x):
    """On the device as the library would hold it: a transposed view stays a view."""
    if not x.flags.c_contiguous and x.T.flags.c_contiguous:
        return torch.from_numpy(x.T).cuda().T
    return torch.from_numpy(x).cuda()


def _cupy(op, operands, repeat, tf32: bool = False, narrow: tuple | None = None):
    """CuPy's product (library_row asks it for f32 and f64 products with TF32 off alone)."""
    if tf32 or narrow:
        return None
    try:
        import cupy
    except ImportError:
        return None
    ca, cb = (cupy.asarray(x) for x in operands)
    out = ca @ cb
    return "CuPy", cupy.asnumpy(out), _cupy_times(cupy, lambda: ca @ cb, repeat)


def _cupy_times(cupy, work, repeat) -> list[float]:
    work()
    times = []
    for _ in range(repeat):
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        work()
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end))
    return times


def _copy_bandwidth(array, repeat) -> list[float] | None:
    """Milliseconds a byte takes in each timed device-to-device copy of
    `array`, or None without PyTorch or CuPy on a GPU."""
    times = None
    try:
        import torch

        if torch.cuda.is_available():
            src = torch.from_numpy(array).cuda()
            dst = torch.empty_like(src)
            times = _torch_times(torch, lambda: dst.copy_(src), repeat)
    except ImportError:
        pass
    if times is None:
        try:
            import cupy
        except ImportError:
            return None
        src = cupy.asarray(array)
        dst = cupy.empty_like(src)
        times = _cupy_times(cupy, lambda: dst.__setitem__(Ellipsis, src), repeat)
    return [t / (2 * array.nbytes) for t in times]  # each byte read once and written once


__all__ = ["library_row"]
