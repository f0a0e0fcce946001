"""Issue 56: tiler's generated march kernels for the 25-point star (benchmarks/star25.fut) beside the
hand-written 2.5-D kernel of march.py, each checked against tiler's window kernel, then timed (CUDA events,
median of 20 after a warm-up). Arguments: generated CUDA files (`tiler compile benchmarks/star25.fut`, any
tree); each one's `tiler_star25_march` is timed, its grid read from the file's launch comment.
Run on a GPU host from the repository root: python3 experiments/windows/march_generated.py A.cu B.cu ...
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile

import cupy as cp
import numpy as np
from march import HAND, timed, tiler_kernel


def cubin(path: str) -> cp.RawModule:
    tmp = tempfile.mkdtemp()
    subprocess.run(["nvcc", "-arch=sm_90", "-cubin", "-O3", "-Xptxas", "-v", "-o", f"{tmp}/k.cubin", path], check=True)
    return cp.RawModule(path=f"{tmp}/k.cubin")


def launch_shape(path: str, n: tuple) -> tuple:
    text = open(path).read()
    head = text[text.index("launch: tiler_star25_march"):]
    block = tuple(int(b) for b in re.search(r"block = \((\d+), (\d+), (\d+)\)", head).groups())
    per = [int(p) for p in re.findall(r"ceil\(n[xyz] / (\d+)\)", head.split("\n")[2])]
    nz, ny, nx = n
    return block, (-(-nx // per[0]), -(-ny // per[1]), -(-nz // per[2]))


def main() -> None:
    nz = ny = nx = 512
    rng = np.random.default_rng(0)
    u = cp.asarray(rng.standard_normal((nz, ny, nx), dtype=np.float32))
    c = cp.asarray(rng.standard_normal(5, dtype=np.float32))
    sizes = (np.int32(nz), np.int32(ny), np.int32(nx))
    ref = cp.full_like(u, cp.nan)
    win = tiler_kernel().get_function("tiler_star25_window")
    wgrid = ((nx + 31) // 32, (ny + 7) // 8, (nz + 7) // 8)
    win(wgrid, (32, 8, 1), (u, c, ref) + sizes)
    copy = timed(lambda: cp.copyto(cp.empty_like(u), u))
    print(f"copy {copy:.4f} ms; tiler window {timed(lambda: win(wgrid, (32, 8, 1), (u, c, ref) + sizes)):.4f} ms")
    hand = cp.RawModule(code=HAND, options=("-DBX=64", "-DBY=4", "-DZC=64", "-DRY=3", "-std=c++17"))
    cases = [("hand plane2 64x4 r3", hand.get_function("plane2"), (64, 4, 1), (nx // 64, -(-ny // 12), nz // 64))]
    for path in sys.argv[1:]:
        block, grid = launch_shape(path, (nz, ny, nx))
        cases.append((path, cubin(path).get_function("tiler_star25_march"), block, grid))
    for name, f, block, grid in cases:
        out = cp.full_like(u, cp.nan)
        f(grid, block, (u, c, out) + sizes)
        err = float(cp.max(cp.abs(out - ref)))
        ok = err < 1e-3 and not bool(cp.isnan(out).any())
        t = timed(lambda f=f, block=block, grid=grid, out=out: f(grid, block, (u, c, out) + sizes)) if ok else \
            float("nan")
        print(f"{name}: {t:.4f} ms ({t / copy:.2f}x copy), max err {err:.1e}{'' if ok else ' WRONG'}")


if __name__ == "__main__":
    main()
