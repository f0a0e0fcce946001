"""The scan's kernels against the untiled kernel by the length of a row, to set
analyse/scans.SCAN_UNRACED: CUDA events around one launch (the stage and the
scan kernel; the untiled kernel), the median of 20 after a warm-up, each on
a GPU host from the repository's root:
    python3 experiments/verify/scan_crossover.py [OUT.json]"""
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, ".")
from tiler.analyse import Options  # noqa: E402
from tiler.check import check  # noqa: E402
from tiler.pipeline import run_all  # noqa: E402
from tiler.runtime import Gpu  # noqa: E402
from tiler.syntax import parse  # noqa: E402
from tiler.workload import load_spec, make_inputs  # noqa: E402

CASES = [("corpus/b_prefix_masked_i64.fut", "n", {}), ("corpus/e_row_count_min_int.fut", "m", {"n": 64}),
         ("corpus/e_hist_cdf_f32.fut", "n", {}), ("corpus/e_balance_drawdown_f64.fut", "n", {})]  # (the last a chain)
LENGTHS = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]
out = []
for path, size, others in CASES:
    text = Path(path).read_text()
    prog = check(parse(text, path))
    values = run_all(text, path, Options())
    kernels = {k.name: k for k in values["verify"].kernels}
    scan = next(k for n, k in kernels.items() if n.endswith("_scan256_raced"))
    untiled = next(k for n, k in kernels.items() if n.endswith("_untiled"))
    for n in LENGTHS:
        sizes = {size: n, **others}
        inputs = make_inputs(prog, sizes, load_spec(Path(path)), seed=1)
        times = {}
        tiled = kernels.get(untiled.name.replace("_untiled", "_tiled"))
        for label, k in (("scan", scan), ("untiled", untiled)) + ((("tiled", tiled),) if tiled else ()):
            _, t = Gpu.get().run(k, values["render"], inputs, sizes, repeat=20)
            times[label] = float(np.median(t))
        out.append({"program": Path(path).stem, "sizes": sizes, **times})
        print(f"{Path(path).stem:28s} {size}={n:6d}  scan {times['scan']:.4f} ms  untiled {times['untiled']:.4f} ms  "
              f"untiled/scan {times['untiled'] / times['scan']:.2f}x" +
              (f"  tiled/scan {times['tiled'] / times['scan']:.2f}x" if "tiled" in times else ""), flush=True)
if len(sys.argv) > 1:
    json.dump(out, open(sys.argv[1], "w"), indent=1)
