"""k-means's fold over the centres fissioned (issue 34): the pairs' distances by a register-tiled 2-D
kernel into scratch memory, then the argmin of each row. For each size: the version the launch's
conditions pick with fission on and off (--no-fission), with d known only at launch and with
`--size d=D`, each checked against the no-fission result; the fissioned version's two kernels apart;
and cuBLAS's product of the same shape (n x d times d x k, TF32 off). Median of `REPEAT` launches, ms:

    python experiments/fission.py [quick]
"""
import dataclasses
import statistics
import sys
from pathlib import Path

import numpy as np
import torch

from tiler.analyse import Options
from tiler.pipeline import run_all
from tiler.runtime import Gpu
from tiler.workload import load_spec, make_inputs

torch.backends.cuda.matmul.allow_tf32 = False
gpu = Gpu.get()
path = Path("benchmarks/kmeans.fut")
text = path.read_text()
SIZES = [(2048, 2048, 2048), (2048, 2048, 34), (1 << 16, 128, 32), (1 << 16, 128, 64), (1 << 16, 128, 128),
         (1 << 16, 256, 64), (1 << 16, 1024, 64), (1 << 16, 1024, 256), (1 << 14, 128, 64), (1 << 18, 256, 34),
         (4096, 128, 2048), (1 << 20, 16, 34)]
if sys.argv[1:] == ["quick"]:
    SIZES = SIZES[:2]
REPEAT = 10


def cublas(n, k, d):
    a = torch.rand(n, d, device="cuda")
    b = torch.rand(d, k, device="cuda")
    for _ in range(3):
        a @ b
    times = []
    for _ in range(REPEAT):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        a @ b
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def timed(kernel, cuda, inputs, sh):
    out, t = gpu.run(kernel, cuda, inputs, sh, repeat=REPEAT)
    return out, statistics.median(t)


for n, k, d in SIZES:
    sh = dict(n=n, k=k, d=d)
    builds = {"fission, d at launch": Options(), "no fission, d at launch": Options(no_fission=True),
              f"fission, --size d={d}": Options(sizes=(("d", d),)),
              f"no fission, --size d={d}": Options(sizes=(("d", d),), no_fission=True)}
    want, line = None, f"n={n} k={k} d={d}: cuBLAS {cublas(n, k, d):.4f}"
    print(line, flush=True)
    for label, o in builds.items():
        v = run_all(text, path.name, o)
        mod, cuda, prog = v["verify"], v["render"], v["check"]
        inputs = make_inputs(prog, sh, load_spec(path), 0)
        kern = mod.select(sh, gpu.sm_count)
        try:
            out, ms = timed(kern, cuda, inputs, sh)
        except Exception as e:  # noqa: BLE001 - an experiment: print and go on
            print(f"  {label:28s} ERROR {str(e)[:300]}", flush=True)
            continue
        if want is None and "no fission" in label:
            want = out
        same = "" if want is None else \
            f"{int(np.sum(out[0] != want[0]))} labels differ" if not np.array_equal(out[0], want[0]) else "same"
        print(f"  {label:28s} {kern.name:44s} {ms:9.4f} ms {same}", flush=True)
        if kern.stages and "no fission" not in label:  # the fold alone (reading whatever the scratch holds)
            try:
                _, t_fold = timed(dataclasses.replace(kern, stages=()), cuda, inputs, sh)
                print(f"    the fold alone {t_fold:.4f} ms: the pairs' kernel about {ms - t_fold:.4f} ms", flush=True)
            except Exception as e:  # noqa: BLE001
                print(f"    the fold alone: ERROR {str(e)[:200]}", flush=True)
