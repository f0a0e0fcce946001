"""Splits for few points, timed past their threshold: every version of each program compiled with the
few-points thresholds (reductions.FEW_POINTS_AN_SM, HEAVY_FEW_POINTS_AN_SM) lifted, so its split versions exist
for any number of points, each launched alone (CUDA events, median of 15 after a warm-up) at the program's
small, medium and large sizes and any given here, its outputs compared with the untiled kernel's (SHORT_ROWS=1:
rows shorter than reductions.MIN_SPLIT_LENGTH split too; LANES=32: the split versions a warp a row, as --lanes
gives). On a GPU host from the repository's root:
    python3 experiments/verify/few_points.py OUT.json PROGRAM[:size=v,size=v] ..."""
import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, ".")
import tiler.analyse.reductions as reductions  # noqa: E402

reductions.FEW_POINTS_AN_SM = reductions.HEAVY_FEW_POINTS_AN_SM = 10 ** 6
if os.environ.get("SHORT_ROWS"):  # splits for rows of any length too (their least length lifted)
    reductions.MIN_SPLIT_LENGTH = 1
from tiler.analyse import Options  # noqa: E402
from tiler.check import check  # noqa: E402
from tiler.pipeline import run_all  # noqa: E402
from tiler.runtime import Gpu  # noqa: E402
from tiler.syntax import parse  # noqa: E402
from tiler.workload import load_spec, make_inputs, resolve_sizes  # noqa: E402


def size_sets(spec, prog, extra):
    for name in ("small", "medium", "large"):
        if spec and name in spec.sizes:
            yield name, resolve_sizes(prog, {}, spec, name)
    for i, given in enumerate(extra):
        yield f"extra{i}", resolve_sizes(prog, given, spec, "large")


def main(out_path, args):
    wanted: dict[str, list] = {}
    for arg in args:
        name, _, extra = arg.partition(":")
        wanted.setdefault(name, [])
        if extra:
            wanted[name].append({k: int(v) for k, v in (kv.split("=") for kv in extra.split(","))})
    out = []
    for name, extra in wanted.items():
        path = f"corpus/{name}.fut"
        text = Path(path).read_text()
        prog = check(parse(text, path))
        spec = load_spec(Path(path))
        lanes = int(os.environ["LANES"]) if os.environ.get("LANES") else None
        values = run_all(text, path, Options(lanes=lanes))
        kernels = [k for k in values["verify"].kernels if "_wide" not in k.name]
        for set_name, sizes in size_sets(spec, prog, extra):
            inputs = make_inputs(prog, sizes, spec, seed=1)
            times, ref = {}, None
            for k in sorted(kernels, key=lambda k: not k.name.endswith("_untiled")):
                label = k.name.split(name)[-1].lstrip("_")
                try:
                    outs, t = Gpu.get().run(k, values["render"], inputs, sizes, repeat=15)
                except Exception as exc:  # noqa: BLE001 (a version that cannot run at these sizes)
                    times[label] = f"skipped: {str(exc)[:60]}"
                    continue
                outs = outs if isinstance(outs, (list, tuple)) else [outs]
                if ref is None:
                    ref = outs
                ok = all(np.allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64),
                                     rtol=1e-3, atol=1e-3) for a, b in zip(outs, ref))
                times[label] = round(float(np.median(t)), 4) if ok else "WRONG"
            out.append({"program": name, "set": set_name, "sizes": sizes, "ms": times})
            shown = "  ".join(f"{k} {v}" for k, v in times.items())
            print(f"{name:28s} {set_name:7s} {sizes}  {shown}", flush=True)
    json.dump(out, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
