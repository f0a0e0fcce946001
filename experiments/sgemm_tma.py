"""Times sgemm_tma.cu's variants of the IEEE f32 product (tiles copied by TMA)
beside the same plan copied by cp.async and cuBLAS SGEMM (TF32 off), in one
process: python sgemm_tma.py 4096 8192. Each variant's output is compared with
cuBLAS's first; cuBLAS is timed first and last. Needs torch and nvcc.
"""
import ctypes
import pathlib
import subprocess
import sys
import tempfile

import torch

HERE = pathlib.Path(__file__).parent


def build(tmp: str) -> ctypes.CDLL:
    lib = pathlib.Path(tmp) / "sgemm_tma.so"
    subprocess.run(["nvcc", "-arch=sm_90a", "-O3", "-std=c++17", "-shared", "-Xcompiler", "-fPIC", "-o", str(lib),
                    str(HERE / "sgemm_tma.cu"), "-lcuda"], check=True)
    so = ctypes.CDLL(str(lib))
    so.name.restype = ctypes.c_char_p
    so.run.restype = ctypes.c_float
    so.run.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 4 + [ctypes.c_int] * 4 + [ctypes.POINTER(ctypes.c_int)]
    return so


def timed(f, reps=20) -> float:
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(3):
        f()
    times = []
    for _ in range(reps):
        start.record()
        f()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return sorted(times)[len(times) // 2]


def main(sizes):
    torch.backends.cuda.matmul.allow_tf32 = False
    with tempfile.TemporaryDirectory() as tmp:
        so = build(tmp)
        for n in sizes:
            a = torch.rand(n, n, device="cuda") - 0.5
            b = torch.rand(n, n, device="cuda") - 0.5
            at = a.t().contiguous()
            ref = a @ b
            flops = 2.0 * n ** 3
            t_cublas = timed(lambda: torch.mm(a, b))
            t_transpose = timed(lambda: a.t().contiguous())
            print(f"{n}^3: cuBLAS {t_cublas:.4f} ms, {flops / t_cublas / 1e9:.1f} TFLOP/s; "
                  f"A transposed by torch {t_transpose:.4f} ms", flush=True)
            c = torch.empty(n, n, device="cuda")
            regs = ctypes.c_int()
            for i in range(so.count()):
                c.fill_(float("nan"))
                ptrs = (a.data_ptr(), at.data_ptr(), b.data_ptr(), c.data_ptr())
                if so.run(i, *ptrs, n, n, n, 0, ctypes.byref(regs)) < 0:
                    print(f"  {so.name(i).decode()}: failed to launch", flush=True)
                    continue
                err = float((c - ref).abs().max())
                t = so.run(i, *ptrs, n, n, n, 20, ctypes.byref(regs))
                both = f", {t_cublas / (t + t_transpose):.3f}x with A's transposition" if so.transposed(i) else ""
                print(f"  {so.name(i).decode()} ({regs.value} registers): {t:.4f} ms, {flops / t / 1e9:.1f} TFLOP/s, "
                      f"{t_cublas / t:.3f}x cuBLAS{both}, max |error| {err:.1e}", flush=True)
            print(f"{n}^3: cuBLAS again {timed(lambda: torch.mm(a, b)):.3f} ms", flush=True)


if __name__ == "__main__":
    main([int(s) for s in sys.argv[1:]] or [4096])
