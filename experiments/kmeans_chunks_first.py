"""k-means without sizes against the sized build, after chunks shrink before threads narrow (issue 34):

    python experiments/kmeans_chunks_first.py
"""
import statistics, sys
from pathlib import Path
from tiler.pipeline import run_all
from tiler.analyse import Options
from tiler.workload import make_inputs, load_spec
from tiler.runtime import Gpu
import numpy as np
gpu = Gpu.get()
path = Path("benchmarks/kmeans.fut"); text = path.read_text()
shapes = [dict(n=1 << 20, k=16, d=34), dict(n=1 << 20, k=16, d=8), dict(n=1 << 20, k=16, d=64), dict(n=1 << 18, k=256, d=34), dict(n=1 << 18, k=256, d=64)]
for sh in shapes:
    want = None
    for label, o in (("bounded", Options()), ("bounded, n k known", Options(sizes=(("k", sh["k"]), ("n", sh["n"])))),
                     ("bounded, 64 threads chunk 64", Options(tile=(64,), chunk=64)),
                     ("sized d", Options(sizes=(("d", sh["d"]),)))):
        v = run_all(text, path.name, o)
        mod, cuda, prog = v["verify"], v["render"], v["check"]
        inputs = make_inputs(prog, sh, load_spec(path), 0)
        k = mod.select(sh, gpu.sm_count)
        out, t = gpu.run(k, cuda, inputs, sh, repeat=30)
        _, t = gpu.run(k, cuda, inputs, sh, repeat=30)
        if want is None: want = out
        ok = all(np.array_equal(a, b) for a, b in zip(out, want))
        print(f"{sh} {label:30s} {k.name:36s} {statistics.median(t):.4f} ms {'same' if ok else 'DIFFERENT'}", flush=True)
