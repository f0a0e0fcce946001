"""Several points a thread, a block's width apart along threadIdx.x's dimension, for kernels whose plan has no
window (the window version's strided schedule, analyse/window_tile.py `_strided`, given to every kernel as its
window version): each version of each program launched alone (CUDA events, median of 15 after a warm-up) at the
program's small, medium and large sizes, its outputs compared with the untiled kernel's. POINTS="4 8" (the
points a thread tried, each a compile). On a GPU host from the repository's root:
    POINTS="4 8" python3 experiments/verify/coarse_points.py OUT.json PROGRAM ..."""
import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, ".")
import tiler.analyse.window_tile as wt  # noqa: E402

plan_module = sys.modules["tiler.analyse.plan"]
written = wt.window_tile


def coarse(kernel, found, untiled, ctx):
    if found:
        return written(kernel, found, untiled, ctx)
    strided = wt._strided(kernel, untiled, ctx)
    return None if strided is untiled else wt.WindowTile(None, wt.STRIDED, (), strided, "points a block apart")


plan_module.window_tile = coarse
from tiler.analyse import Options  # noqa: E402
from tiler.check import check  # noqa: E402
from tiler.pipeline import run_all  # noqa: E402
from tiler.runtime import Gpu  # noqa: E402
from tiler.syntax import parse  # noqa: E402
from tiler.workload import load_spec, make_inputs, resolve_sizes  # noqa: E402


def main(out_path, names):
    out = []
    for name in names:
        path = f"corpus/{name}.fut"
        text = Path(path).read_text()
        prog = check(parse(text, path))
        spec = load_spec(Path(path))
        kernels = {}
        for points in map(int, os.environ.get("POINTS", "8").split()):
            wt.STRIDED = points
            values = run_all(text, path, Options())
            for k in values["verify"].kernels:
                if "_wide" in k.name:
                    continue
                label = k.name.split(name)[-1].lstrip("_") + (f"{points}" if k.name.endswith("_window") else "")
                kernels.setdefault(label, (k, values["render"]))
        for set_name in ("small", "medium", "large"):
            if not spec or set_name not in spec.sizes:
                continue
            sizes = resolve_sizes(prog, {}, spec, set_name)
            inputs = make_inputs(prog, sizes, spec, seed=1)
            times, ref = {}, None
            for label in sorted(kernels, key=lambda lb: lb != "untiled"):
                k, render = kernels[label]
                try:
                    outs, t = Gpu.get().run(k, render, inputs, sizes, repeat=15)
                except Exception as exc:  # noqa: BLE001 (a version that cannot run at these sizes)
                    times[label] = f"skipped: {str(exc)[:60]}"
                    continue
                outs = outs if isinstance(outs, (list, tuple)) else [outs]
                ref = outs if ref is None else ref
                ok = all(np.allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64),
                                     rtol=1e-3, atol=1e-3) for a, b in zip(outs, ref))
                times[label] = round(float(np.median(t)), 4) if ok else "WRONG"
            out.append({"program": name, "set": set_name, "sizes": sizes, "ms": times})
            print(f"{name:28s} {set_name:7s} {sizes}  " + "  ".join(f"{k} {v}" for k, v in times.items()), flush=True)
    json.dump(out, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
