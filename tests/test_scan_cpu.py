"""The kernels of a scan down columns run on the CPU (they have no barrier
and no shuffle: each thread walks its own column, so running every block's
threads one after another is a launch): compiled with the host's C++
compiler beside stand-ins for CUDA's few names they use, every block and
thread of the stage and then of the scan kernel, against the interpreter.
This checks their results where CI has no GPU (tests/test_gpu.py runs
them on one)."""
from __future__ import annotations

import ctypes
import re
import shutil
import subprocess

import numpy as np
import pytest
from conftest import PROGRAMS, ROOT

from tiler.analyse import Options
from tiler.analyse.scans import COLUMN_SCAN_BLOCKS, COLUMN_SCAN_LANES, COLUMN_SCAN_SHARE, Scan
from tiler.check import check
from tiler.interp import run
from tiler.pipeline import run_all
from tiler.syntax import parse
from tiler.workload import load_spec, make_inputs, resolve_sizes

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")

# CUDA's names the column kernels use, for one thread at a time
STAND_INS = r"""
#include <cmath>
#include <cstring>
struct Dim3 { unsigned x, y, z; };
static Dim3 blockIdx, threadIdx;
#define __global__
#define __launch_bounds__(...)
#define __restrict__
template <class T> static inline T min(T a, T b) { return a < b ? a : b; }
template <class T> static inline T max(T a, T b) { return a > b ? a : b; }
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
static inline double __longlong_as_double(long long v) { double d; memcpy(&d, &v, 8); return d; }
static inline float __int_as_float(int v) { float f; memcpy(&f, &v, 4); return f; }
static inline long long tiler_wide_mul(int a, int b) { return (long long)a * b; }
"""
C_TYPES = {"float": np.float32, "double": np.float64, "int": np.int32, "long long": np.int64}
PROGRAMS_DOWN_COLUMNS = sorted((PROGRAMS / "scans").glob("cols_*.fut")) + [
    ROOT / "corpus" / f"{n}.fut" for n in ("e_col_cumsum_sales_f32", "e_col_excl_offsets_int",
                                             "e_col_running_max_ratio_f64")]


def _function(cuda: str, name: str) -> str:
    """The kernel `name`'s definition, as a static C++ function."""
    start = cuda.index(f"\n{name}(") + 1
    return "static void " + cuda[start:cuda.index("\n}\n", start) + 3]


def _launcher(kernel, names: list[str]) -> str:
    """`extern "C" void launch(void **args, bx, by, bz)`: every block and thread of each kernel, in turn."""
    call = ", ".join(f"({p.ctype}*)args[{i}]" if p.role in ("input", "output", "scratch") else
                     f"*({p.ctype}*)args[{i}]" for i, p in enumerate(kernel.params))
    loops = "".join(f"""
  for (unsigned z = 0; z < bz; ++z) for (unsigned y = 0; y < by; ++y) for (unsigned x = 0; x < bx; ++x)
    for (unsigned t = 0; t < {COLUMN_SCAN_LANES}; ++t) {{
      blockIdx = {{x, y, z}}; threadIdx = {{t, 0, 0}};
      {name}({call});
    }}""" for name in names)
    return f'extern "C" void launch(void **args, unsigned bx, unsigned by, unsigned bz) {{{loops}\n}}\n'


def _ran(path, tmp_path, mutate=lambda source: source) -> tuple[list, tuple, str]:
    """The scan kernels' outputs (run on the CPU, the source `mutate`d
    first), the interpreter's, and the kernel's name."""
    text = path.read_text()
    prog = check(parse(text, path.name))
    values = run_all(text, path.name, Options())
    scan = values["analyse"].plan.scan
    assert isinstance(scan, Scan) and scan.columns(values["analyse"].kernel)
    levels = prog.kernel.levels
    # positions in uneven shares (the interpreter walks n^2 of them a column: the GPU tests take longer
    # columns), columns past a block's, and two outer rows where there is a level outside
    given = {levels[scan.level].size.name: 15 * COLUMN_SCAN_SHARE + 37, levels[-1].size.name: COLUMN_SCAN_LANES + 5}
    given |= {lv.size.name: 2 for lv in levels[:scan.level]}
    sizes = resolve_sizes(prog, given, load_spec(path), "test")
    inputs = make_inputs(prog, sizes, load_spec(path), seed=7)
    want = run(prog, inputs)

    kernel = next(k for k in values["verify"].kernels if k.name.endswith("_scan256"))
    names = [st.name for st in kernel.stages] + [kernel.name]  # (a chain: a stage each level)
    source = STAND_INS + "".join(_function(values["render"], name) for name in names) + _launcher(kernel, names)
    (tmp_path / "scan.cpp").write_text(mutate(source))
    subprocess.run(["g++", "-O1", "-shared", "-fPIC", "-o", str(tmp_path / "scan.so"), str(tmp_path / "scan.cpp")],
                   check=True, capture_output=True, text=True)
    n, m = sizes[levels[scan.level].size.name], sizes[levels[-1].size.name]
    blocks = min(-(-n // COLUMN_SCAN_SHARE), COLUMN_SCAN_BLOCKS)
    outer = int(np.prod([sizes[lv.size.name] for lv in levels[:scan.level]], dtype=np.int64))
    outputs = iter(want)
    arrays = []
    for p in kernel.params:
        if p.role == "input":
            arrays.append(np.ascontiguousarray(inputs[p.source], dtype=C_TYPES[p.ctype]))
        elif p.role == "output":
            arrays.append(np.full(next(outputs).shape, -7, dtype=C_TYPES[p.ctype]))  # (poisoned)
        elif p.role == "scratch":
            arrays.append(np.zeros(blocks * outer * m, dtype=C_TYPES[p.ctype]))
        elif p.role == "size":
            arrays.append(np.array([sizes[p.source]], dtype=np.int32))
        else:
            arrays.append(np.array([inputs[p.source]], dtype=C_TYPES[p.ctype]))
    args = (ctypes.c_void_p * len(arrays))(*(a.ctypes.data for a in arrays))
    library = ctypes.CDLL(str(tmp_path / "scan.so"))
    library.launch(args, ctypes.c_uint(-(-m // COLUMN_SCAN_LANES)), ctypes.c_uint(blocks), ctypes.c_uint(outer))
    return [a for a, p in zip(arrays, kernel.params) if p.role == "output"], want, kernel.name


def _close(got, want) -> bool:
    return all(np.allclose(g.astype(np.float64), np.asarray(w, dtype=np.float64), rtol=1e-4,
                           atol=1e-4 * max(1.0, float(np.abs(w).max(initial=0)))) for g, w in zip(got, want))


@pytest.mark.parametrize("path", PROGRAMS_DOWN_COLUMNS, ids=lambda p: p.stem)
def test_the_column_scan_kernels_match_the_interpreter(path, tmp_path):
    got, want, name = _ran(path, tmp_path)
    assert _close(got, want), name


def test_a_scan_kernel_that_drops_the_earlier_shares_is_caught(tmp_path):
    """The check fails where a kernel is wrong: the scan kernel starting
    each share from nothing, not from the earlier shares' totals."""
    def dropped(source: str) -> str:
        out = re.sub(r"(for \(int \w+ = 0; \w+ < )blockIdx\.y(;)", r"\g<1>0\g<2>", source)
        assert out != source
        return out
    got, want, _ = _ran(PROGRAMS / "scans" / "cols_mean_f32.fut", tmp_path, dropped)
    assert not _close(got, want)
