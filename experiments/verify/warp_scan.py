"""Row scans a warp a row (lower/scan.py, `_scan32`) against a block a row (`_scan256`), the untiled kernel and
the tiled one, at rows of 32 to 4,096 positions and 2,048 to 100,000 rows: CUDA events around one launch, the
median of 10; the kernels of n^2 steps a row only where rows x m^2 stays below 2^35. Outputs compared with the
block-a-row scan's. On a GPU host from the repository's root (POINTS="1024x4096,...": those rows x lengths
instead, the first program only):
    python3 experiments/verify/warp_scan.py [OUT.json]"""
import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, ".")
from tiler.analyse import Options  # noqa: E402
from tiler.check import check  # noqa: E402
from tiler.pipeline import run_all  # noqa: E402
from tiler.runtime import Gpu  # noqa: E402
from tiler.syntax import parse  # noqa: E402
from tiler.workload import load_spec, make_inputs, resolve_sizes  # noqa: E402

PROGRAMS = ["corpus/e_row_count_min_int.fut", "corpus/e_row_runmean_peak_f32.fut",
            "tests/programs/scans/chain_rows_guarded_f32.fut"]
LENGTHS = [32, 64, 128, 256, 512, 1024, 2048, 4096]
ROWS = [2048, 16384, 100000]
out = []
for path in PROGRAMS:
    text = Path(path).read_text()
    prog = check(parse(text, path))
    spec = load_spec(Path(path))
    levels = prog.kernel.levels
    values = run_all(text, path, Options())
    kernels = {k.name.split(Path(path).stem)[-1].lstrip("_"): k for k in values["verify"].kernels
               if "_wide" not in k.name and "_raced" not in k.name}
    picked = {n: kernels[n] for n in ("scan32", "scan256", "untiled", "tiled") if n in kernels}
    points = [tuple(map(int, p.split("x"))) for p in os.environ.get("POINTS", "").split(",") if p]
    if points and path != PROGRAMS[0]:
        continue
    for rows, m in points or [(r, m) for r in ROWS for m in LENGTHS]:
        if True:
            sizes = resolve_sizes(prog, {levels[0].size.name: rows, levels[-1].size.name: m}, spec, "test")
            inputs = make_inputs(prog, sizes, spec, seed=1)
            times, ref = {}, None
            for label in ("scan256", "scan32", "untiled", "tiled"):
                if label not in picked or (label in ("untiled", "tiled") and rows * m * m > 2 ** 35):
                    continue
                outs, t = Gpu.get().run(picked[label], values["render"], inputs, sizes, repeat=10)
                outs = outs if isinstance(outs, (list, tuple)) else [outs]
                if ref is None:
                    ref = outs
                ok = all(np.allclose(np.asarray(a, np.float64), np.asarray(b, np.float64), rtol=1e-3, atol=1e-3)
                         for a, b in zip(outs, ref))
                times[label] = round(float(np.median(t)), 4) if ok else "WRONG"
            out.append({"program": Path(path).stem, "sizes": sizes, "ms": times})
            print(f"{Path(path).stem:24s} rows {rows:6d} m {m:5d}  " +
                  "  ".join(f"{k} {v}" for k, v in times.items()), flush=True)
if len(sys.argv) > 1:
    json.dump(out, open(sys.argv[1], "w"), indent=1)
