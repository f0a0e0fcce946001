"""Row scans of short rows when there are many rows: the raced scan version's kernels, the untiled kernel and
the tiled one at 100,000 rows of 32 to 512 positions (the scan version runs from 256 only), CUDA events
around one launch, the median of 20; on a GPU host from the repository's root:
    python3 experiments/verify/short_rows.py [OUT.json]"""
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

CASES = [("corpus/e_row_count_min_int.fut", "m", {"n": 100_000}), ("corpus/e_row_runmean_peak_f32.fut", "m", None)]
LENGTHS = [32, 64, 128, 192, 256, 512]
out = []
for path, size, others in CASES:
    text = Path(path).read_text()
    prog = check(parse(text, path))
    if others is None:  # (the rows' size: the one that is not the length)
        others = {s.name: 100_000 for s in prog.kernel.sizes if s.name != size}
    values = run_all(text, path, Options())
    kernels = {k.name: k for k in values["verify"].kernels}
    picked = {"scan": next(k for n, k in kernels.items() if n.endswith("_scan256_raced")),
              "untiled": next(k for n, k in kernels.items() if n.endswith("_untiled"))}
    tiled = next((k for n, k in kernels.items() if n.endswith("_tiled")), None)
    if tiled is not None:
        picked["tiled"] = tiled
    for n in LENGTHS:
        sizes = {size: n, **others}
        inputs = make_inputs(prog, sizes, load_spec(Path(path)), seed=1)
        times = {}
        for label, k in picked.items():
            _, t = Gpu.get().run(k, values["render"], inputs, sizes, repeat=20)
            times[label] = float(np.median(t))
        out.append({"program": Path(path).stem, "sizes": sizes, **times})
        print(f"{Path(path).stem:24s} {size}={n:4d} " + "  ".join(f"{k} {v:.4f}" for k, v in times.items()), flush=True)
if len(sys.argv) > 1:
    json.dump(out, open(sys.argv[1], "w"), indent=1)
