"""Every golden kernel compiles under NVRTC, the route of CuPy's RawModule and
cuda-python, which compiles device code alone (no host headers): the
generated file guards `math.h` and the host launcher from it. NVRTC comes
from NVIDIA's `nvidia-cuda-nvrtc` package (a dev dependency), so this runs
without a GPU or a CUDA toolkit."""
from __future__ import annotations

import ctypes
import ctypes.util
import glob
import os

import pytest
from conftest import ROOT, toolkit_include

GOLDEN = sorted((ROOT / "tests" / "golden" / "cuda").glob("*.cu"))


def _libnvrtc():
    try:
        import nvidia
        roots = list(nvidia.__path__)
    except ImportError:
        roots = []
    candidates = [p for r in roots for p in sorted(glob.glob(os.path.join(r, "*", "lib", "libnvrtc.so*")))
                  if "builtins" not in p and ".alt." not in p]
    found = ctypes.util.find_library("nvrtc")
    for path in candidates + ([found] if found else []):
        try:
            # NVRTC dlopens its builtins by name: loaded first from beside it, they are found
            for builtins in glob.glob(os.path.join(os.path.dirname(path), "libnvrtc-builtins.so*")):
                if ".alt." not in builtins:
                    ctypes.CDLL(builtins, mode=ctypes.RTLD_GLOBAL)
            return ctypes.CDLL(path)
        except OSError:
            continue
    return None


NVRTC = _libnvrtc()
pytestmark = pytest.mark.skipif(NVRTC is None, reason="libnvrtc not found (pip install nvidia-cuda-nvrtc)")


def nvrtc_compile(source: str, name: str, arch: str = "sm_90", include=None) -> str:
    """'' when NVRTC compiles `source` (`include`: a folder of headers), else its log."""
    prog = ctypes.c_void_p()
    assert NVRTC.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None) == 0
    given = [f"--gpu-architecture={arch}".encode(), b"--std=c++17"] + \
        ([f"--include-path={include}".encode()] if include else [])
    opts = (ctypes.c_char_p * len(given))(*given)
    status = NVRTC.nvrtcCompileProgram(prog, len(given), opts)
    size = ctypes.c_size_t()
    NVRTC.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    NVRTC.nvrtcGetProgramLog(prog, log)
    NVRTC.nvrtcDestroyProgram(ctypes.byref(prog))
    return "" if status == 0 else log.value.decode(errors="replace")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_kernels_compile_under_nvrtc(path):
    source, include = path.read_text(), None
    if "#include <cuda_bf16.h>" in source or "#include <cuda_fp16.h>" in source:
        include = toolkit_include()  # (16-bit types: NVRTC needs the toolkit's headers, as CuPy passes them)
        if include is None:
            pytest.skip("a 16-bit kernel: the CUDA toolkit's headers not found")
    assert nvrtc_compile(source, path.name, include=include) == ""


def test_nvrtc_reports_a_broken_kernel():  # the check can fail
    assert "error" in nvrtc_compile('extern "C" __global__ void k() { undeclared(); }', "broken.cu")
