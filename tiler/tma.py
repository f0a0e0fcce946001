"""sm_90's tensor memory accelerator (TMA) as tiler uses it: its CUDA
spellings (beside tiler.target's, which is full), and the tensor maps a
launch makes for it.

A product on the warp groups' instructions (sm_90a) whose tiles are rows or
columns of 2-D input arrays copies each chunk's tiles by TMA: one thread
issues each box (`cp.async.bulk.tensor.2d`, the 128-byte swizzle wgmma's
descriptors read) into a ring of buffers, each with a `full` mbarrier that
the copies' bytes complete and an `empty` one that each warp group arrives
at once it is done with the buffer; no block-wide barrier in the loop, and
one chunk's instructions left running while the next is waited for. A box
past an array's edge is filled with zeros, so partial tiles and the last
partial chunk need no code of their own. Measured standalone against the
same tiles copied by cp.async with barriers (experiments/wgmma/, H200,
2026-12-01): TF32 A Btᵀ at 4096^3 0.431 ms against tiler's 0.476, at a
128 x 256 tile 0.357 (cuBLAS 0.365).

A register-tiled f32 product on the CUDA cores (sm_90) copies its tiles so
too where they are boxes of arrays as they lie (analyse/core_tma.py), laid
out unswizzled as its threads read them, each buffer freed by a block-wide
barrier before the thread refills it (no `empty` mbarriers).

The launch makes each map (`cuTensorMapEncodeTiled`): the array's address,
its two extents (innermost first), its row pitch in bytes, the box; and
passes it by value (`__grid_constant__`), the kernel's first parameters
(the maps are 64-byte aligned).
"""
from __future__ import annotations

import ctypes

import numpy as np

from .errors import PlainError
from .target import SIZEOF, arch_number

MAP_TYPE = "tiler_tensor_map"  # tma.cuh: the 128 bytes of a CUtensorMap, 64-byte aligned
MAP_BYTES = 128
PARAM = "const __grid_constant__ " + MAP_TYPE  # a kernel's map parameter
BARRIERS = "tiler_tma_barriers"  # <STAGES>(full, empty, consumers): declared by the statement, then initialised
FULL, EMPTY = "tiler_full", "tiler_empty"  # the mbarrier arrays
BARRIER_ARRAYS = "__shared__ __align__(8) unsigned long long"  # their declaration
ISSUE = "tiler_tma_issue"  # (full[s], bytes): the thread's expect_tx
COPY = "tiler_tma_copy"  # (shared*, &map, c0, c1, full[s])
WAIT = "tiler_mbarrier_wait"  # (bar, parity)
RELEASE = "tiler_tma_release"  # (empty[s]): one thread of each warp group arrives
INVALIDATE = "tiler_tma_invalidate"  # <STAGES>(full): the issuing thread invalidates them after the loop
MATRIX_WAIT = "tiler_wgmma_drain"  # (tile): every chunk done, the accumulators settled
ISSUER = "threadIdx.x + threadIdx.y + threadIdx.z == 0"  # the thread that issues every copy
MAKE = "tiler_tensor_map_2d"  # tma.cuh: the host launcher's map (&map, array, type, element bytes, extents, box)

# CUtensorMapDataType by C element type (cuda.h), and the encoding's other choices
DATA_TYPES = {"float": 7, "double": 8, "__half": 6, "__nv_bfloat16": 9, "int": 3, "long long": 5}
SWIZZLE_NONE, SWIZZLE_128B, INTERLEAVE_NONE, L2_256B, FILL_ZEROS = 0, 3, 0, 3, 0
TMA_ARCH = 90  # the first architecture with TMA
BOX_ALIGN = 128  # where a box lands in shared memory: its tile starts on a boundary of this many bytes


def available(arch: str) -> bool:
    """Whether code for `arch` may copy by TMA (sm_90 and later)."""
    return arch_number(arch) >= TMA_ARCH


def swizzle(swizzled: bool) -> int:
    """A map's CUtensorMapSwizzle: the warp groups' 128-byte swizzle, or none (the CUDA cores' tiles)."""
    return SWIZZLE_128B if swizzled else SWIZZLE_NONE


class TensorMapError(PlainError):
    """The driver refused a tensor map (its result code): an array that does
    not start 16-byte aligned, or a driver without TMA."""


def encode(address: int, p, extents: tuple[int, int]) -> bytes:
    """The 128 bytes of the tensor map parameter `p` (a kir.Param: its C type,
    box and swizzle) over a row-major 2-D array at `address` of `extents`
    (innermost first), copied in boxes (innermost first) into tiles with the
    128-byte swizzle or as they lie, zeros past its edges (through the CUDA
    driver already loaded by the runtime)."""
    ctype, box = p.ctype, p.box
    size = SIZEOF[ctype]
    buf = (ctypes.c_uint64 * (MAP_BYTES // 8))()
    dims = (ctypes.c_uint64 * 2)(extents[0], extents[1])
    strides = (ctypes.c_uint64 * 1)(extents[0] * size)
    boxes = (ctypes.c_uint32 * 2)(box[0], box[1])
    steps = (ctypes.c_uint32 * 2)(1, 1)
    result = _driver().cuTensorMapEncodeTiled(buf, DATA_TYPES[ctype], 2, ctypes.c_void_p(address), dims, strides,
                                              boxes, steps, INTERLEAVE_NONE, swizzle(p.swizzled), L2_256B, FILL_ZEROS)
    if result != 0:
        raise TensorMapError(f"the CUDA driver refused a TMA map of {extents[1]} x {extents[0]} {ctype} at "
                             f"{address:#x} in boxes of {box[1]} x {box[0]} (CUresult {result})",
                             "an array a kernel copies by TMA must start 16-byte aligned; --no-tma copies by cp.async")
    return bytes(buf)


# sm_90's kernel parameters start at this offset of their constant bank, and a 64-byte aligned parameter (a map)
# lies where its address there is a multiple of 64: the first map 48 bytes into a parameter buffer the launch packs
# itself (pycuda's), which `padding` fills (nvcc's <<<>>> lays them out alike; measured: the twenty-ninth session)
PARAM_BASE = 0x210
MAP_ALIGN = 64
ROW_BYTES = 16  # a tensor map's rows start a multiple of this apart (its row pitch)


def padding():
    """What goes before the maps (a kernel's first parameters) in a packed parameter buffer."""
    return np.zeros((-PARAM_BASE) % MAP_ALIGN, dtype=np.uint8).view(np.dtype((np.void, (-PARAM_BASE) % MAP_ALIGN)))[0]


def by_value(bits: bytes):
    """A map as pycuda passes a parameter by value (its bytes, unaligned in the buffer: the maps come first)."""
    return np.frombuffer(bits, dtype=np.dtype((np.void, len(bits))))[0]


_LIB = []


def _driver():
    if not _LIB:
        lib = ctypes.CDLL("libcuda.so.1")
        lib.cuTensorMapEncodeTiled.restype = ctypes.c_int
        _LIB.append(lib)
    return _LIB[0]
