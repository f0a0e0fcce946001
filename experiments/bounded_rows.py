"""Bounded row lengths (issue 34): every bounded kernel against the interpreter (`check`: d = 1, 3, 34, 63, 64,
65; other sizes 5 and 1000), or the module (its race included) against untiled (`time`):

    python experiments/bounded_rows.py check|time
"""
import sys, glob, statistics
import numpy as np
from pathlib import Path
from tiler.pipeline import run_all
from tiler.analyse import Options
from tiler.workload import make_inputs, load_spec
from tiler.interp import run as interp
from tiler.runtime import Gpu

gpu = Gpu.get()
files = sorted(glob.glob("benchmarks/*.fut")) + sorted(glob.glob("tests/programs/analysis/*.fut")) + \
    sorted(glob.glob("corpus/*.fut"))
mode = sys.argv[1]
opts = Options()
for f in files:
    text = Path(f).read_text()
    v = run_all(text, Path(f).name, opts, device=gpu.described)
    mod, prog = v["verify"], v["check"]
    bounded = [k for k in mod.kernels if k.bounds]
    if not bounded:
        continue
    (name, most), = bounded[0].bounds
    spec = load_spec(Path(f))
    if mode == "check":
        for length in (1, 3, 34, 63, 64, 65):
            for other in (5, 1000):
                sizes = {s.name: (length if s.name == name else other + (s.name < "m")) for s in prog.kernel.sizes}
                try:
                    inputs = make_inputs(prog, sizes, spec, 0)
                except Exception as e:
                    print(f, sizes, "inputs", e); continue
                want = interp(prog, inputs)
                for k in bounded + [mod]:
                    if isinstance(k, type(bounded[0])) and not k.runs_at(sizes):
                        if length <= most and all(sizes[n] % w == 0 for n, w in k.divisible):
                            print("CHECK", Path(f).stem, sizes, k.name, "WRONG: does not run within its bound")
                        continue
                    got, _ = gpu.run(k, v["render"], inputs, sizes)
                    bad = []
                    for g, w in zip(got, want):
                        if np.isnan(g).any() and not np.isnan(w).any():
                            bad.append("unwritten")
                        sc = max(1.0, float(np.abs(w).max(initial=0)))
                        err = float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max(initial=0))
                        if err > 1e-3 * sc:
                            bad.append(f"err {err}")
                    label = k.name if k is not mod else "module:" + gpu.launched(mod, v["render"], inputs, sizes).name
                    print("CHECK", Path(f).stem, sizes, label, "OK" if not bad else "WRONG " + " ".join(bad), flush=True)
    else:  # time the module (its race included) against untiled, at the corpus sizes with the bounded size set
        plain = run_all(text, Path(f).name, Options(no_tile=True), device=gpu.described)
        tables = [t for t in ("small", "medium", "large", "full", "quick") if spec and t in spec.sizes]
        for t in tables:
            for length in (8, 34, 64):
                sizes = dict(spec.size_set(t)); sizes[name] = length
                if any(isinstance(x, str) for x in sizes.values()):
                    continue
                sizes = {s.name: int(sizes[s.name]) for s in prog.kernel.sizes}
                try:
                    inputs = make_inputs(prog, sizes, spec, 0)
                    dev = gpu.upload(inputs)
                    _, a = gpu.run(mod, v["render"], inputs, sizes, repeat=20, device=dev)
                    _, b = gpu.run(plain["verify"], plain["render"], inputs, sizes, repeat=20, device=dev)
                    _, a = gpu.run(mod, v["render"], inputs, sizes, repeat=20, device=dev)
                    ran = gpu.launched(mod, v["render"], inputs, sizes, dev).name
                    dev.free()
                except Exception as e:
                    print("TIME", Path(f).stem, t, sizes, "ERROR", str(e)[:200], flush=True); continue
                ma, mb = statistics.median(a), statistics.median(b)
                print(f"TIME {Path(f).stem} {t} {sizes} default {ma:.4f} ms untiled {mb:.4f} ms ratio {mb / ma:.2f}x ran {ran}",
                      flush=True)
