"""Whether tiler's f64 products on the FP64 matrix units (--tensor-cores)
give, bit for bit, what the kernel as written gives: every kernel of the
module with and without --tensor-cores, at sizes no tile divides, against
the untiled kernel's outputs (a thread's `acc + a * b` in k order, which
nvcc fuses into one multiply-add a step). From the repository's root on a
GPU host: python3 experiments/verify/f64_units_bitwise.py (the log of session 39,
results/session39-2026-12-01-h200/bitwise/, ends with a count taken before
this tally left out the split versions: read its lines)."""
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

CASES = [("benchmarks/mm_f64.fut", [dict(m=130, n=37, q=130), dict(m=256, n=256, q=256), dict(m=1000, n=1003, q=999),
                                     dict(m=2048, n=2048, q=2048), dict(m=3, n=1, q=5)]),
         ("tests/programs/tensor_cores/mm_atbt_f64.fut", [dict(m=130, n=37, k=130), dict(m=517, n=1000, k=300)]),
         ("corpus/c_xty_tstream_f64.fut", ["small", "medium"]),
         ("corpus/g_hashed_proj_f64.fut", ["small", "medium"])]


def outputs(text, name, options, sizes, inputs):
    values = run_all(text, name, options)
    module = values["verify"]
    for k in module.kernels:
        if not k.runs_at(sizes):
            continue
        got, _ = Gpu.get().run(k, values["render"], inputs, sizes)
        yield k.name, got


bad = 0
for path, size_sets in CASES:
    text = Path(path).read_text()
    prog = check(parse(text, Path(path).name))
    spec = load_spec(Path(path))
    for s in size_sets:
        sizes = resolve_sizes(prog, {} if isinstance(s, str) else s, spec, s if isinstance(s, str) else "test")
        for seed in (1, 2):
            inputs = make_inputs(prog, sizes, spec, seed=seed)
            (_, want), = [(n, g) for n, g in outputs(text, Path(path).name, Options(no_tile=True), sizes, inputs)
                          if n.endswith("_untiled")][:1]
            for label, opts in (("default", Options()), ("--tensor-cores", Options(tensor_cores=True))):
                for name, got in outputs(text, Path(path).name, opts, sizes, inputs):
                    diff = sum(int((g.view(np.int64) != w.view(np.int64)).sum()) for g, w in zip(got, want))
                    bad += diff if "_tiled" in name else 0  # (split versions add shares in another order)
                    print(f"{Path(path).stem:22s} {str(sizes):44s} seed {seed} {label:15s} {name:48s} "
                          f"{diff} of {sum(w.size for w in want)} differ", flush=True)
print("differing outputs of the tiled versions, with and without the flag:", bad)
