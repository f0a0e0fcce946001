"""Arrays already on the GPU, read where they are.

A CuPy array, a CUDA PyTorch tensor, a Numba or pycuda device array (anything
with `__cuda_array_interface__`), or an object that exports CUDA memory
through DLPack (`__dlpack__`, JAX's arrays) is passed to a kernel by its
pointer: no copy to the host and back. Outputs are then made by the library
of the first such input, so a CuPy caller gets CuPy arrays back and a PyTorch
caller tensors. Without a GPU, `device_array` still reads the interface, so
its checks are tested anywhere.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..errors import PlainError

DLPACK_CUDA = (2, 13)  # kDLCUDA, kDLCUDAManaged: the DLPack device types tiler can read
LIBRARIES = ("cupy", "torch")  # libraries whose own arrays the outputs are made as


@dataclass(frozen=True)
class DeviceArray:
    """One array in GPU memory: where it is and what it holds."""

    pointer: int
    shape: tuple[int, ...]
    dtype: np.dtype  # as the device holds it: a bf16's is uint16 (its bits), NumPy having no bfloat16
    library: str  # "cupy", "torch", or "" (outputs as pycuda GPUArrays)
    owner: object  # the caller's array, kept alive while a kernel reads it
    bfloat16: bool = False  # it holds bf16 values (a torch.bfloat16 tensor)

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize


def on_device(value) -> bool:
    """Whether `value` lives in GPU memory (and is not a host array)."""
    if _is_torch_bfloat16(value):  # (its interface may not describe it: device_array reads it through a view)
        return bool(getattr(value, "is_cuda", False))
    if hasattr(value, "__cuda_array_interface__"):
        return True
    device = getattr(value, "__dlpack_device__", None)
    return device is not None and _dlpack_device(value)[0] in DLPACK_CUDA


def device_array(name: str, value) -> DeviceArray:
    """The array `value` given for parameter `name`, read through its
    interface; refused where a kernel cannot read it in place."""
    bf16 = _is_torch_bfloat16(value)
    if not bf16 and not hasattr(value, "__cuda_array_interface__"):
        value = _from_dlpack(name, value)
        bf16 = _is_torch_bfloat16(value)  # (a DLPack bfloat16 array that PyTorch views)
    try:
        # (PyTorch's interface calls a bf16 tensor "<f2", float16's typestr: its bits are read as int16s)
        face = (value.view(_torch().int16) if bf16 else value).__cuda_array_interface__
    except (AttributeError, RuntimeError) as exc:  # PyTorch refuses tensors that require grad
        raise PlainError(f"`{name}`: its __cuda_array_interface__ cannot be read: {exc}",
                         "pass tensor.detach() for a PyTorch tensor that requires grad") from None
    shape = tuple(int(n) for n in face["shape"])
    dtype = np.dtype(np.uint16) if bf16 else np.dtype(face["typestr"])
    _check_contiguous(name, shape, dtype, face.get("strides"))
    if face.get("mask") is not None:
        raise PlainError(f"`{name}` is a masked array; a kernel reads every element")
    _check_device(name, value)
    pointer = face["data"][0]
    library = type(value).__module__.split(".")[0]
    return DeviceArray(int(pointer), shape, dtype, library if library in LIBRARIES else "", value, bf16)


def _is_torch_bfloat16(value) -> bool:
    return type(value).__module__.split(".")[0] == "torch" and str(getattr(value, "dtype", "")) == "torch.bfloat16"


def _torch():
    import torch

    return torch


def check_param(name: str, want: np.dtype, rank: int, d: DeviceArray, bfloat16: bool = False) -> None:
    """The array fits the parameter: its rank and its element type, exactly
    (converting would copy it); a bf16 parameter takes a torch.bfloat16
    tensor (CuPy has no bfloat16)."""
    if len(d.shape) != rank:
        raise PlainError(f"`{name}` is an array of rank {rank}, but the device array given has shape {d.shape}")
    if bfloat16 or d.bfloat16:
        if bfloat16 != d.bfloat16:
            held = "bfloat16" if d.bfloat16 else d.dtype
            raise PlainError(f"`{name}` holds {'bf16' if bfloat16 else want}, not {held}",
                             "convert it on the device first (PyTorch: t.to(torch.bfloat16); CuPy has no bfloat16)"
                             if bfloat16 else f"convert it on the device first (PyTorch: t.to(torch.{want}))")
        return
    if d.dtype != want:
        raise PlainError(f"`{name}` holds {want}, not {d.dtype}",
                         f"convert it on the device first (CuPy: a.astype(cupy.{want}); PyTorch: "
                         f"t.to(torch.{'bool' if want == np.bool_ else want}))")


def allocator(library: str) -> Callable[..., DeviceArray]:
    """A function making an output array of the library given, `(shape,
    dtype, fill, bfloat16=False)`, filled with a poison value so that an
    element the kernel misses shows. A bf16 output is a torch.bfloat16
    tensor from PyTorch; CuPy, which has no bfloat16, and pycuda give its
    bits (uint16)."""
    return {"cupy": _cupy_full, "torch": _torch_full}.get(library, _pycuda_full)


def to_host(d: DeviceArray, gpu) -> np.ndarray:
    """A host copy (for the reference interpreter: a bf16 array as float32)."""
    from .. import bfloat16

    host = np.empty(d.shape, d.dtype)
    if host.nbytes:
        with gpu.active():
            gpu.drv.Context.synchronize()  # the producer's stream may still be writing it
            gpu.drv.memcpy_dtoh(host, d.pointer)
    return bfloat16.from_bits(host) if d.bfloat16 else host


def _check_contiguous(name: str, shape: tuple, dtype: np.dtype, strides) -> None:
    if strides is None:
        return
    expect, step = [], dtype.itemsize
    for n in reversed(shape):
        expect.append(step)
        step *= n
    if any(s != e for n, s, e in zip(shape, strides, reversed(expect)) if n > 1):
        raise PlainError(f"`{name}` is not C-contiguous (strides {tuple(strides)} bytes); a kernel reads its "
                         "elements row after row",
                         "pass a contiguous copy (CuPy: cupy.ascontiguousarray(a); PyTorch: t.contiguous())")


def _check_device(name: str, value) -> None:
    """tiler runs on the first visible device: an array on another one would
    be read through a pointer the kernel cannot use."""
    cupy_device = getattr(getattr(value, "device", None), "id", None)
    torch_device = getattr(getattr(value, "device", None), "index", None)
    index = cupy_device if isinstance(cupy_device, int) else torch_device
    if isinstance(index, int) and index != 0:
        raise PlainError(f"`{name}` is on GPU {index}; tiler runs kernels on GPU 0",
                         "move it to GPU 0, or make the GPU you want the first with CUDA_VISIBLE_DEVICES")


def _dlpack_device(value) -> tuple[int, int]:
    device = value.__dlpack_device__()
    return int(device[0]), int(device[1])


def _from_dlpack(name: str, value):
    """An array that exports CUDA memory through DLPack alone, viewed (no
    copy) as a CuPy array or a PyTorch tensor, whichever is installed."""
    kind, index = _dlpack_device(value)
    if kind not in DLPACK_CUDA:
        raise PlainError(f"`{name}` is not in GPU memory (DLPack device type {kind})")
    if index != 0:
        raise PlainError(f"`{name}` is on GPU {index}; tiler runs kernels on GPU 0",
                         "make the GPU you want the first with CUDA_VISIBLE_DEVICES")
    refused = []
    for module in LIBRARIES:
        try:
            library = __import__(module)
        except ImportError:
            continue
        try:
            return library.from_dlpack(value)
        except (TypeError, ValueError, BufferError, RuntimeError) as exc:  # (CuPy has no bfloat16: PyTorch next)
            refused.append(f"{module}: {exc}")
    if refused:
        raise PlainError(f"`{name}` is a DLPack array neither CuPy nor PyTorch can view: {'; '.join(refused)}")
    raise PlainError(f"`{name}` is a DLPack array; tiler reads those through CuPy or PyTorch, and neither "
                     "is installed", "pip install cupy-cuda12x (or torch), or pass a NumPy array")


def _cupy_full(shape: tuple, dtype: np.dtype, fill, bfloat16: bool = False) -> DeviceArray:
    import cupy

    with cupy.cuda.Device(0):
        a = cupy.full(shape, fill, dtype=dtype)
    return DeviceArray(a.data.ptr, shape, dtype, "cupy", a)


def _torch_full(shape: tuple, dtype: np.dtype, fill, bfloat16: bool = False) -> DeviceArray:
    import torch

    if bfloat16:  # (the poison is a NaN: as a bf16)
        t = torch.full(shape, float("nan"), dtype=torch.bfloat16, device="cuda:0")
        return DeviceArray(t.data_ptr(), shape, dtype, "torch", t, bfloat16=True)
    kind = {np.dtype(np.bool_): torch.bool}.get(dtype) or getattr(torch, dtype.name)
    t = torch.full(shape, fill.item(), dtype=kind, device="cuda:0")
    return DeviceArray(t.data_ptr(), shape, dtype, "torch", t)


def _pycuda_full(shape: tuple, dtype: np.dtype, fill, bfloat16: bool = False) -> DeviceArray:
    import pycuda.gpuarray as gpuarray

    a = gpuarray.to_gpu(np.full(shape, fill, dtype))
    return DeviceArray(int(a.gpudata), shape, dtype, "", a)
