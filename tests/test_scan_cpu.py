"""The kernels of a scan run on the CPU, compiled with the host's C++
compiler beside stand-ins for CUDA's few names they use, every block of
the stages and then of the scan kernel, against the interpreter. A scan
down columns has no barrier and no shuffle (each thread walks its own
column), so its threads run one after another; a scan along rows runs each
block's 256 threads as threads of the host, its barriers and warp shuffles
made of waits on all the block's (or warp's) threads. This checks their
results where CI has no GPU (tests/test_gpu.py runs them on one)."""
from __future__ import annotations

import ctypes
import re
import shutil
import subprocess

import numpy as np
import pytest
from conftest import PROGRAMS, ROOT

from tiler.analyse import Options
from tiler.analyse.scans import COLUMN_SCAN_LANES, COLUMN_SCAN_SHARE, SCAN_LANES, Scan
from tiler.check import check
from tiler.interp import run
from tiler.kir.walkers import evaluate
from tiler.lower import scan as scan_lowering
from tiler.pipeline import run_all
from tiler.syntax import parse
from tiler.workload import load_spec, make_inputs, resolve_sizes

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")

# CUDA's names the column kernels use, for one thread at a time
STAND_INS = r"""
#include <cmath>
#include <cstring>
struct Dim3 { unsigned x, y, z; };
static Dim3 blockIdx;
static thread_local Dim3 threadIdx;
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
static inline int tiler_min(int a, int b) { return a < b ? a : b; }
"""
# a block's barrier and its warps' shuffles, for a row scan's threads run as the host's (a thread waiting
# 20 s on one is a deadlock: the test fails)
THREADS = r"""
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
struct Barrier {
  std::mutex m; std::condition_variable cv; int waiting = 0, round = 0, n = 0;
  void wait() {
    std::unique_lock<std::mutex> lock(m);
    int mine = round;
    if (++waiting == n) { waiting = 0; ++round; cv.notify_all(); return; }
    if (!cv.wait_for(lock, std::chrono::seconds(20), [&] { return round != mine; })) {
      fprintf(stderr, "deadlock: a barrier of %d threads met by %d\n", n, waiting); _Exit(3);
    }
  }
};
static Barrier block_barrier, warp_barriers[32];
static uint64_t warp_values[32][32];
static unsigned block_x = 256;  // threads along x (a block of a warp a row: 32 along x, its rows along y)
static inline void __syncthreads() { block_barrier.wait(); }
template <class T> static T exchange(T v, int from) {
  int flat = threadIdx.x + threadIdx.y * block_x, warp = flat / 32, lane = flat % 32;
  uint64_t bits = 0; memcpy(&bits, &v, sizeof(T)); warp_values[warp][lane] = bits;
  warp_barriers[warp].wait();
  T out; bits = warp_values[warp][from]; memcpy(&out, &bits, sizeof(T));
  warp_barriers[warp].wait();
  return out;
}
template <class T> static T __shfl_up_sync(unsigned, T v, int d) {
  int lane = threadIdx.x % 32; return exchange(v, lane >= d ? lane - d : lane);
}
template <class T> static T __shfl_xor_sync(unsigned, T v, int d) { return exchange(v, (threadIdx.x % 32) ^ d); }
template <class T> static T __shfl_sync(unsigned, T v, int from) { return exchange(v, from); }
"""
C_TYPES = {"float": np.float32, "double": np.float64, "int": np.int32, "long long": np.int64}
PROGRAMS_DOWN_COLUMNS = sorted((PROGRAMS / "scans").glob("cols_*.fut")) + [
    ROOT / "corpus" / f"{n}.fut" for n in ("e_col_cumsum_sales_f32", "e_col_excl_offsets_int",
                                             "e_col_running_max_ratio_f64")]


def _function(cuda: str, name: str) -> str:
    """The kernel `name`'s definition, as a static C++ function."""
    start = cuda.index(f"\n{name}(") + 1
    return "static void " + cuda[start:cuda.index("\n}\n", start) + 3]


def _launcher(kernel, names: list[str], lanes: int, threads: bool) -> str:
    """`extern "C" void launch(void **args, bx, by, bz)`: every block of
    each kernel in turn, its `lanes` threads one after another or (`threads`)
    side by side (a kernel's block of two dimensions: x the faster)."""
    call = ", ".join(f"({p.ctype}*)args[{i}]" if p.role in ("input", "output", "scratch") else
                     f"*({p.ctype}*)args[{i}]" for i, p in enumerate(kernel.params))
    bx = kernel.block[0]
    run = f"""
      std::vector<std::thread> running;
      for (unsigned t = 0; t < {lanes}; ++t)
        running.emplace_back([&, t] {{ threadIdx = {{t % {bx}, t / {bx}, 0}}; NAME({call}); }});
      for (auto &r : running) r.join();""" if threads else f"""
      for (unsigned t = 0; t < {lanes}; ++t) {{ threadIdx = {{t, 0, 0}}; NAME({call}); }}"""
    loops = "".join(f"""
  for (unsigned z = 0; z < bz; ++z) for (unsigned y = 0; y < by; ++y) for (unsigned x = 0; x < bx; ++x) {{
      blockIdx = {{x, y, z}};{run.replace("NAME", name)}
  }}""" for name in names)
    start = f"  block_barrier.n = {lanes}; block_x = {bx}; for (auto &w : warp_barriers) w.n = 32;\n" if threads else ""
    return f'extern "C" void launch(void **args, unsigned bx, unsigned by, unsigned bz) {{\n{start}{loops}\n}}\n'


def _ran(path, tmp_path, mutate=lambda source: source, length: int | None = None,
         kernel_name: str = "_scan256") -> tuple[list, tuple, str]:
    """The scan kernels' outputs (run on the CPU, the source `mutate`d
    first), the interpreter's, and the kernel's name. Along rows: rows of
    `length` positions (`kernel_name`: the version, `_scan32` a warp a row)."""
    text = path.read_text()
    prog = check(parse(text, path.name))
    values = run_all(text, path.name, Options())
    scan = values["analyse"].plan.scan
    assert isinstance(scan, Scan)
    levels, columns = prog.kernel.levels, scan.columns(values["analyse"].kernel)
    if columns:  # positions in uneven shares (the interpreter walks n^2 of them a column: the GPU tests take
        # longer columns), columns past a block's, and two outer rows where there is a level outside
        given = {levels[scan.level].size.name: 15 * COLUMN_SCAN_SHARE + 37,
                 levels[-1].size.name: COLUMN_SCAN_LANES + 5}
    else:  # (rows and batches of counts unlike each other and a row's blocks: a swap of grid axes shows)
        given = {lv.size.name: (5, 3)[min(n, 1)] for n, lv in enumerate(reversed(levels[:-1]))} | \
            {levels[-1].size.name: length}
    given |= {lv.size.name: 2 for lv in levels[:scan.level] if lv.size.name not in given}
    sizes = resolve_sizes(prog, given, load_spec(path), "test")
    inputs = make_inputs(prog, sizes, load_spec(path), seed=7)
    want = run(prog, inputs)

    kernel = next(k for k in values["verify"].kernels if k.name.endswith(kernel_name))
    names = [st.name for st in kernel.stages] + [kernel.name]  # (a chain: a stage each level)
    lanes = COLUMN_SCAN_LANES if columns else kernel.block[0] * kernel.block[1]
    source = STAND_INS + ("" if columns else THREADS) + "".join(_function(values["render"], name) for name in names) \
        + _launcher(kernel, names, lanes, threads=not columns)
    (tmp_path / "scan.cpp").write_text(mutate(source))
    subprocess.run(["g++", "-std=c++17", "-O1", "-shared", "-fPIC", "-o", str(tmp_path / "scan.so"),
                    str(tmp_path / "scan.cpp"), "-lpthread"], check=True, capture_output=True, text=True)
    outputs = iter(want)
    arrays = []
    for p in kernel.params:
        if p.role == "input":
            arrays.append(np.ascontiguousarray(inputs[p.source], dtype=C_TYPES[p.ctype]))
        elif p.role == "output":
            arrays.append(np.full(next(outputs).shape, -7, dtype=C_TYPES[p.ctype]))  # (poisoned)
        elif p.role == "scratch":  # (poisoned: neither a sum's nor a maximum's identity)
            arrays.append(np.full(evaluate(kernel.scratch[0].count, sizes), 12345, dtype=C_TYPES[p.ctype]))
        elif p.role == "size":
            arrays.append(np.array([sizes[p.source]], dtype=np.int32))
        else:
            arrays.append(np.array([inputs[p.source]], dtype=C_TYPES[p.ctype]))
    args = (ctypes.c_void_p * len(arrays))(*(a.ctypes.data for a in arrays))
    library = ctypes.CDLL(str(tmp_path / "scan.so"))
    library.launch(args, *(ctypes.c_uint(b) for b in kernel.grid_dims(sizes)))
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


# along rows: chains (a stage each level), exclusive and suffix scans, a total, two loops in one kernel, rows of
# a matrix
PROGRAMS_ALONG_ROWS = [PROGRAMS / "scans" / f"{n}.fut" for n in (
    "chain_excl_peak_f64", "chain_rows_guarded_f32", "chain_count_weighted_i64", "nested_if_count_f32",
    "cdf_total_f32", "diffs_excl_f32", "suffix_f32", "rows_cummax_f64", "batch_rows_f32", "rows_share_f32")] + [
    ROOT / "corpus" / "e_balance_drawdown_f64.fut"]


@pytest.mark.parametrize("path", PROGRAMS_ALONG_ROWS, ids=lambda p: p.stem)
def test_the_row_scan_kernels_match_the_interpreter(path, tmp_path, monkeypatch):
    """Two blocks a row (at most two, as past 2,048 blocks of 256), each
    walking three rounds of its lanes, the last short; five rows (and three
    batches) where there are rows."""
    monkeypatch.setattr(scan_lowering, "MAX_BLOCKS_A_ROW", 2)
    got, want, name = _ran(path, tmp_path, length=5 * SCAN_LANES + 37)
    assert _close(got, want), name


@pytest.mark.parametrize("name", ["chain_rows_guarded_f32", "rows_cummax_f64"])
def test_a_row_scan_of_rows_shorter_than_a_round_matches_the_interpreter(name, tmp_path):
    """Rows of 130 positions (the scan runs there where rows are many): one block a row, its one round short."""
    got, want, kernel = _ran(PROGRAMS / "scans" / f"{name}.fut", tmp_path, length=130)
    assert _close(got, want), kernel


def test_a_row_scan_kernel_with_its_grid_axes_swapped_is_caught(tmp_path, monkeypatch):
    """The check fails where the rows and a row's blocks trade grid axes."""
    def swapped(source: str) -> str:
        out = source.replace("blockIdx.x", "blockIdx.@").replace("blockIdx.y", "blockIdx.x").replace("blockIdx.@",
                                                                                                   "blockIdx.y")
        assert out != source
        return out
    monkeypatch.setattr(scan_lowering, "MAX_BLOCKS_A_ROW", 2)
    got, want, _ = _ran(PROGRAMS / "scans" / "rows_cummax_f64.fut", tmp_path, swapped, length=3 * SCAN_LANES)
    assert not _close(got, want)


def test_a_row_scan_kernel_whose_later_levels_skip_the_earlier_blocks_is_caught(tmp_path, monkeypatch):
    """The check fails where a chain's kernel is wrong: a later level
    starting each block from nothing, not from the earlier blocks' totals."""
    def dropped(source: str) -> str:
        out = re.sub(r"(double peak_run = )peak_before_all;", r"\g<1>__longlong_as_double(0x7fffffffffffffffLL);",
                     source)
        assert out != source
        return out
    monkeypatch.setattr(scan_lowering, "MAX_BLOCKS_A_ROW", 2)
    got, want, _ = _ran(ROOT / "corpus" / "e_balance_drawdown_f64.fut", tmp_path, dropped, length=3 * SCAN_LANES)
    assert not _close(got, want)


# rows of a matrix (and of batches), a chain along rows, an exclusive scan (after a position), and two
# corpus programs
WARP_ROWS = [PROGRAMS / "scans" / f"{n}.fut" for n in (
    "batch_rows_f32", "chain_rows_guarded_f32", "rows_after_i64", "rows_cummax_f64")] + [
    ROOT / "corpus" / f"{n}.fut" for n in ("e_row_count_min_int", "e_row_runmean_peak_f32")]


@pytest.mark.parametrize("path", WARP_ROWS, ids=lambda p: p.stem)
@pytest.mark.parametrize("length", [5, 3 * 32 + 7])
def test_the_scan_kernel_of_a_warp_a_row_matches_the_interpreter(path, length, tmp_path):
    """A warp a row, eight rows a block: five rows (and three batches), so
    the block's last three warps have none; rows of less than a round, and
    of three rounds and a short one."""
    got, want, name = _ran(path, tmp_path, length=length, kernel_name="_scan32")
    assert _close(got, want), name


def test_a_warp_scan_that_drops_the_earlier_rounds_is_caught(tmp_path):
    """The check fails where the warp's rounds do not carry their totals on."""
    def dropped(source: str) -> str:
        out = re.sub(r"(\w+_run) = \w+\(\1, \w+_wt\);", "", source)
        assert out != source
        return out
    got, want, _ = _ran(PROGRAMS / "scans" / "rows_cummax_f64.fut", tmp_path, dropped, length=3 * 32 + 7,
                        kernel_name="_scan32")
    assert not _close(got, want)
