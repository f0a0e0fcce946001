"""Times hand-written variants of the IEEE f32 product (sgemm_prefetch.cu:
register fragments loaded a step ahead, within a chunk or across its barrier)
beside tiler's kernel and cuBLAS SGEMM (TF32 off), in one process:
python sgemm_prefetch.py 4096 8192. Each variant's output is compared with
cuBLAS's before it is timed; cuBLAS is timed first and last. Needs cupy, torch.
"""
import pathlib
import sys

import cupy as cp
import numpy as np
import torch

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from mm_pipeline import timed, tiler_kernel  # noqa: E402

HERE = pathlib.Path(__file__).parent
# stages, chunk, groups of 4 rows a thread (2: 8 x 8 points, 4: 16 x 8), blocks an SM asked, prefetch
VARIANTS = [(3, 16, 2, 1, 0), (3, 16, 2, 2, 0), (3, 16, 2, 1, 1), (3, 16, 2, 2, 1), (3, 16, 2, 1, 2),
            (4, 16, 2, 1, 2), (3, 8, 2, 2, 2), (4, 8, 2, 2, 2), (3, 32, 2, 1, 2), (3, 16, 4, 1, 2), (4, 8, 4, 1, 2)]


def cublas_kernel_name(ta, tb) -> str:
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        torch.mm(ta, tb)
        torch.cuda.synchronize()
    return "; ".join(sorted({e.key for e in prof.key_averages()}))


def main(sizes):
    torch.backends.cuda.matmul.allow_tf32 = False
    (base, base_shared), hand = tiler_kernel(), (HERE / "sgemm_prefetch.cu").read_text()
    kernels = []
    for stages, bk, gm, minb, pf in VARIANTS:
        code = f"#define STAGES {stages}\n#define BK {bk}\n#define GM {gm}\n#define MINB {minb}\n#define PF {pf}\n" + base + hand
        k = cp.RawModule(code=code, backend="nvcc", options=("-arch=sm_90", "--std=c++17")).get_function("mm_pf")
        shared = stages * (bk * (64 * gm + 4) + bk * 128) * 4
        k.max_dynamic_shared_size_bytes = shared
        kernels.append((f"stages {stages}, chunk {bk}, {4 * gm} x 8 points, {minb} block(s) an SM, prefetch {pf}"
                        f" ({k.num_regs} registers)", k, shared, gm))
    generated = cp.RawModule(code=base, backend="nvcc", options=("-arch=sm_90",)).get_function("tiler_mm_tiled")
    generated.max_dynamic_shared_size_bytes = base_shared
    kernels.insert(0, (f"tiler (as generated, {generated.num_regs} registers)", generated, base_shared, 2))
    for n in sizes:
        a = cp.random.rand(n, n, dtype=cp.float32) - 0.5
        b = cp.random.rand(n, n, dtype=cp.float32) - 0.5
        ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda")
        ref = cp.asarray(ta @ tb)
        flops = 2.0 * n ** 3
        print(f"{n}^3: cuBLAS kernel {cublas_kernel_name(ta, tb)}", flush=True)
        t_cublas = timed(lambda: torch.mm(ta, tb))
        print(f"{n}^3: cuBLAS {t_cublas:.3f} ms, {flops / t_cublas / 1e9:.1f} TFLOP/s", flush=True)
        out = cp.empty((n, n), cp.float32)
        args = (a, b, out, np.int32(n), np.int32(n), np.int32(n))
        for name, k, shared, gm in kernels:
            out.fill(np.nan)
            grid = ((n + 127) // 128, (n + 64 * gm - 1) // (64 * gm))
            t = timed(lambda: k(grid, (16, 16), args, shared_mem=shared))
            err = float(cp.abs(out - ref).max())
            print(f"  {name}: {t:.3f} ms, {flops / t / 1e9:.1f} TFLOP/s, {t_cublas / t:.3f}x cuBLAS, "
                  f"max |error| {err:.1e}", flush=True)
        t_end = timed(lambda: torch.mm(ta, tb))
        print(f"{n}^3: cuBLAS again {t_end:.3f} ms", flush=True)


if __name__ == "__main__":
    main([int(s) for s in sys.argv[1:]] or [4096])
