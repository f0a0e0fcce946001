"""64-bit offset versions with 128-bit copies (issue 34): the mat-vec past 2^31 elements, its wide kernel
with vector copies against the one with scalar copies, beside the 32-bit kernel just below 2^31:

    python experiments/wide_vectors.py
"""
import statistics
from pathlib import Path

import numpy as np

from tiler.analyse import Options
from tiler.pipeline import run_all
from tiler.runtime import Gpu

gpu = Gpu.get()
path = Path("tests/programs/analysis/matvec.fut")
values = run_all(path.read_text(), path.name, Options())
module, cuda = values["verify"], values["render"]
for sizes in ({"n": 65535, "m": 32768}, {"n": 65536, "m": 32772}):
    a = np.ones((sizes["n"], sizes["m"]), np.float32)
    x = (np.arange(sizes["m"]) % 7 - 3).astype(np.float32)
    inputs = {"A": a, "x": x}
    dev = gpu.upload(inputs)
    want = None
    for k in module.kernels:
        if not k.tiled or not k.runs_at(sizes) or (k.wide != (sizes["n"] * sizes["m"] >= 2**31)):
            continue
        (got,), _ = gpu.run(k, cuda, inputs, sizes, device=dev)
        (got,), t = gpu.run(k, cuda, inputs, sizes, repeat=20, device=dev)
        want = got if want is None else want
        gb = (a.nbytes + x.nbytes) / statistics.median(t) / 1e6
        print(f"{sizes} {k.name:40s} {statistics.median(t):.3f} ms {gb:,.0f} GB/s "
              f"{'same' if np.array_equal(got, want) else 'DIFFERENT'}", flush=True)
    dev.free()
