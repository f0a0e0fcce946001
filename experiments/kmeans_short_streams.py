"""k-means with few centres, compiled without --size (issue 34): the chunk the plan picks without sizes
(32) leaves a stream of 16 centres one partial chunk, run by the guarded last-chunk path. Times the plan's
chunk against shorter ones (--chunk), the plan with n and k given, and the one with d given, at a few
centre counts (d = 34, n = 2^20; median of 30 launches, each result checked against the first):

    python experiments/kmeans_short_streams.py
"""
import statistics
from pathlib import Path

import numpy as np

from tiler.analyse import Options
from tiler.pipeline import run_all
from tiler.runtime import Gpu
from tiler.workload import load_spec, make_inputs

gpu = Gpu.get()
path = Path("benchmarks/kmeans.fut")
text = path.read_text()
for k in (8, 16, 24, 48, 256):
    sh = dict(n=1 << 20, k=k, d=34)
    variants = {"no sizes (plan's chunk)": Options(), "no sizes, --chunk 16": Options(chunk=16),
                "no sizes, --chunk 8": Options(chunk=8), "n, k given": Options(sizes=(("k", k), ("n", sh["n"]))),
                "d given": Options(sizes=(("d", 34),))}
    want = None
    for label, o in variants.items():
        v = run_all(text, path.name, o)
        mod, cuda, prog = v["verify"], v["render"], v["check"]
        inputs = make_inputs(prog, sh, load_spec(path), 0)
        kern = mod.select(sh, gpu.sm_count)
        try:
            out, t = gpu.run(kern, cuda, inputs, sh, repeat=30)
            _, t = gpu.run(kern, cuda, inputs, sh, repeat=30)
        except Exception as e:  # noqa: BLE001 - an experiment: print and go on
            print(sh, label, "ERROR", str(e)[:300], flush=True)
            continue
        want = out if want is None else want
        ok = all(np.array_equal(a, b) for a, b in zip(out, want))
        print(f"k={k:4d} {label:28s} {kern.name:36s} {statistics.median(t):.4f} ms {'same' if ok else 'DIFFERENT'}",
              flush=True)
