"""Times tiler's register-tiled matrix product against hand-written variants
(mm_pipeline.cu) and cuBLAS, on one GPU: python mm_pipeline.py 4096 8192
(ONLY=0,2 runs those VARIANTS alone).

The tiler kernel is compiled from benchmarks/mm.fut by the tiler on the path;
every variant's output is compared with cuBLAS (TF32 off) before it is timed.
Needs cupy and torch.
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import cupy as cp
import numpy as np
import torch

HERE = pathlib.Path(__file__).parent
VARIANTS = [(3, 1, 0, 2, 16), (3, 0, 0, 2, 16), (4, 1, 0, 2, 16), (2, 1, 0, 2, 16), (3, 1, 1, 2, 16),
            (4, 1, 1, 2, 16), (2, 1, 1, 2, 16), (3, 1, 0, 4, 16), (4, 1, 0, 4, 16), (2, 1, 0, 4, 16),
            (3, 1, 0, 2, 8), (4, 1, 0, 2, 8), (5, 1, 0, 2, 8), (6, 1, 0, 2, 8), (4, 1, 0, 4, 8),
            (3, 1, 0, 2, 32), (3, 1, 0, 2, 16, 0), (4, 1, 0, 2, 16, 0),
            # 18-: A's tile as A lays it out, 16-byte copies (AVEC); blocks in groups of block rows (RASTER)
            (3, 1, 0, 2, 16, 4, 1, 0), (4, 1, 0, 2, 16, 4, 1, 0), (3, 1, 0, 2, 32, 4, 1, 0),
            (3, 1, 0, 2, 16, 4, 0, 8), (3, 1, 0, 2, 16, 4, 1, 8), (4, 1, 0, 2, 16, 4, 1, 8),
            (3, 1, 0, 2, 16, 4, 0, 4), (3, 1, 0, 2, 16, 4, 0, 16)]
# stages, clamp, warp, groups of 4 rows a thread, chunk[, padding of A's tile (4)[, A's 16-byte copies, raster]]


def tiler_kernel() -> tuple[str, int]:
    """tiler.cuh and the first version (tiler_mm_tiled) of the generated module, and its dynamic shared bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "mm.cu"
        subprocess.run([sys.executable, "-m", "tiler", "compile", str(HERE.parent / "benchmarks" / "mm.fut"), "-o", str(out)],
                       check=True)
        text = out.read_text()
    start = text.index("// tiler.cuh")
    end = text.index("\ntiler_mm_tiled_scalar(", start)
    shared = int(re.search(r"launch: tiler_mm_tiled<<<grid, block, (\d+)>>>", text).group(1))
    return text[start:text.rindex("extern", 0, end)], shared


def timed(f, reps=20) -> float:
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(3):
        f()
    times = []
    for _ in range(reps):
        start.record()
        f()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(times))


def main(sizes):
    torch.backends.cuda.matmul.allow_tf32 = False
    (base, base_shared), hand = tiler_kernel(), (HERE / "mm_pipeline.cu").read_text()
    for n in sizes:
        a = cp.random.rand(n, n, dtype=cp.float32) - 0.5
        b = cp.random.rand(n, n, dtype=cp.float32) - 0.5
        ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda")
        ref = cp.asarray(ta @ tb)
        flops = 2.0 * n ** 3
        t_cublas = timed(lambda: torch.mm(ta, tb))
        print(f"{n}^3: cuBLAS {t_cublas:.3f} ms, {flops / t_cublas / 1e9:.1f} TFLOP/s", flush=True)
        out = cp.empty((n, n), cp.float32)
        args = (a, b, out, np.int32(n), np.int32(n), np.int32(n))
        generated = cp.RawModule(code=base, backend="nvcc", options=("-arch=sm_90",)).get_function("tiler_mm_tiled")
        generated.max_dynamic_shared_size_bytes = base_shared
        kernels = [("tiler (as generated)", generated, base_shared, 2)]
        only = os.environ.get("ONLY")  # indices into VARIANTS, comma-separated: a subset
        chosen = [VARIANTS[int(i)] for i in only.split(",")] if only else VARIANTS
        for stages, clamp, warp, gm, bk, *rest in chosen:
            pad, avec, raster = list(rest) + [4, 0, 0][len(rest):]
            code = (f"#define STAGES {stages}\n#define CLAMP {clamp}\n#define WARP {warp}\n#define GM {gm}\n#define BK {bk}\n"
                    f"#define PAD {pad}\n#define AVEC {avec}\n#define RASTER {raster}\n" + base + hand)
            k = cp.RawModule(code=code, backend="nvcc", options=("-arch=sm_90", "--std=c++17")).get_function("mm_async")
            a_tile = 64 * gm * (bk + 4) if avec else bk * (64 * gm + pad)
            shared = stages * (a_tile + bk * 128) * 4
            k.max_dynamic_shared_size_bytes = shared
            kernels.append((f"cp.async {stages} stages, clamps {'on' if clamp else 'off'}, "
                            f"warp {'4 x 8' if warp else '2 x 16'}, {4 * gm} x 8 points a thread, chunk {bk}, pad {pad}"
                            f"{', A by 16 bytes' if avec else ''}{f', raster {raster}' if raster else ''}", k, shared, gm))
        for name, k, shared, gm in kernels:
            out.fill(np.nan)
            grid = ((n + 127) // 128, (n + 64 * gm - 1) // (64 * gm))
            t = timed(lambda: k(grid, (16, 16), args, shared_mem=shared))
            err = float(cp.abs(out - ref).max())
            print(f"  {name}: {t:.3f} ms, {flops / t / 1e9:.1f} TFLOP/s, {t_cublas / t:.3f}x cuBLAS, "
                  f"max |error| {err:.1e}", flush=True)


if __name__ == "__main__":
    main([int(s) for s in sys.argv[1:]] or [4096])
