"""Debug a TMA kernel on the GPU: run it alone at the sizes given and compare with the interpreter."""
import sys

import numpy as np

from tiler.analyse import Options
from tiler.check import check
from tiler.interp import run
from tiler.pipeline import run_all
from tiler.runtime import Gpu
from tiler.syntax import parse
from tiler.workload import load_spec, make_inputs

path, hint, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
no_tma = len(sys.argv) > 4
text = open(path).read()
prog = check(parse(text, path))
gpu = Gpu.get()
options = Options(tensor_cores=True, no_tma=no_tma, sizes=tuple(sorted((s.name, hint) for s in prog.kernel.sizes)))
values = run_all(text, path, options, device=gpu.described)
sizes = {s.name: size for s in prog.kernel.sizes}
inputs = make_inputs(prog, sizes, load_spec(path), seed=1)
want = run(prog, inputs)[0]
for k in values["verify"].kernels:
    if not k.tiled or not k.runs_at(sizes):
        continue
    (got,), _ = gpu.run(k, values["render"], inputs, sizes)
    nan = int(np.isnan(got).sum())
    err = float(np.nanmax(np.abs(got.astype(np.float64) - want))) if nan < got.size else float("nan")
    print(f"{k.name} at {sizes}: nan {nan} of {got.size}, max err {err:.3g}, scale {float(np.abs(want).max()):.3g}")
    print("  got ", got.ravel()[:6], "\n  want", want.ravel()[:6])
    print("  got row 0 nan at", np.flatnonzero(np.isnan(got[0]))[:10], "last row", np.flatnonzero(np.isnan(got[-1]))[:10])
