"""Where a small launch's time goes: for each corpus program and size set,
the default's time as `tiler corpus` measures it (CUDA events around one
launch), the host's time to issue that launch (between the two events'
records), and the GPU's time in its kernels (CUPTI, through
torch.profiler); then the same three for the PyTorch twin, eager.

    python3 experiments/verify/overhead.py corpus/a_matmul_loop_f32.fut:small ...
"""
from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.getcwd())

from tiler.analyse import make_options  # noqa: E402
from tiler.bench.peer import load_twin, twin_arguments  # noqa: E402
from tiler.pipeline import run_all  # noqa: E402
from tiler.runtime import Gpu  # noqa: E402
from tiler.workload import resolve_sizes  # noqa: E402
from tiler.workload.spec import load_spec, make_inputs  # noqa: E402

REPEAT = 40


class Stamped:
    """A pycuda Event whose record() notes the host's clock too."""
    made: list = []

    def __init__(self, real):
        self.real, self.at = real(), None
        Stamped.made.append(self)

    def record(self, *a):
        self.at = time.perf_counter()
        return self.real.record(*a)

    def synchronize(self):
        return self.real.synchronize()

    def time_till(self, other):
        return self.real.time_till(other.real)


def kernel_us(fn, launches: int) -> tuple[float, int]:
    """The GPU's time in kernels a launch (us), and the kernels a launch, of `fn()`'s `launches` launches."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    kernels = [e for e in prof.events() if e.device_type.name == "CUDA" and "Memcpy" not in e.name
               and "Memset" not in e.name]
    total = sum(e.device_time_total if hasattr(e, "device_time_total") else e.cuda_time_total for e in kernels)
    return total / launches, round(len(kernels) / launches)


def main() -> None:
    import pycuda.driver as drv
    import torch

    gpu = Gpu.get()
    real_event = drv.Event
    for item in sys.argv[1:]:
        path, size_set = item.split(":")
        source = open(path).read()
        values = run_all(source, path, make_options(), device=gpu.described)
        k, cuda, prog = values["verify"], values["render"], values["check"]
        spec = load_spec(path)
        sizes = resolve_sizes(prog, {}, spec, size_set)
        inputs = make_inputs(prog, sizes, spec, seed=1)
        dev = gpu.upload(inputs, prog)
        gpu.run(k, cuda, inputs, sizes, repeat=3, device=dev)  # (the race, then warm)
        ran = gpu.ran(k, cuda, sizes, inputs).name
        Stamped.made = []
        drv.Event = lambda: Stamped(real_event)
        try:
            _, times = gpu.run(k, cuda, inputs, sizes, repeat=REPEAT, device=dev)
        finally:
            drv.Event = real_event
        pairs = list(zip(Stamped.made[0::2], Stamped.made[1::2]))
        host = statistics.median((e.at - s.at) * 1e3 for s, e in pairs)
        gpu_us, kernels = kernel_us(lambda: gpu.run(k, cuda, inputs, sizes, repeat=REPEAT, device=dev), REPEAT + 2)
        print(f"{os.path.basename(path)} {size_set} {sizes}: tiler {ran}: events {statistics.median(times)*1e3:8.1f} us"
              f"  host issue {host*1e3:8.1f} us  kernels {gpu_us:8.1f} us ({kernels} a launch)", flush=True)
        dev.free()
        twin = load_twin(path)
        if twin is None:
            continue
        args = twin_arguments(prog, inputs, "cuda")
        for _ in range(3):
            twin(*args)
        ts, hs = [], []
        for _ in range(REPEAT):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            t0 = time.perf_counter()
            twin(*args)
            hs.append((time.perf_counter() - t0) * 1e6)
            e.record()
            e.synchronize()
            ts.append(s.elapsed_time(e) * 1e3)

        def twins():
            for _ in range(REPEAT):
                twin(*args)
        tw_us, tw_k = kernel_us(twins, REPEAT)
        print(f"{'':>40} twin eager: events {statistics.median(ts):8.1f} us  host issue {statistics.median(hs):8.1f}"
              f" us  kernels {tw_us:8.1f} us ({tw_k} a call)", flush=True)


if __name__ == "__main__":
    main()
