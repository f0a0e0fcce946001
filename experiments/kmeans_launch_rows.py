"""k-means compiled without --size d (issue 34): the bounded kernel against the sized one and hand edits of
the bounded CUDA (the row loop unrolled by 4, to the bound with a guard, with a break):

    python experiments/kmeans_launch_rows.py
"""
import re, statistics, sys
from pathlib import Path
from tiler.pipeline import run_all
from tiler.analyse import Options
from tiler.workload import make_inputs, load_spec
from tiler.interp import run as interp
from tiler.runtime import Gpu
import numpy as np

gpu = Gpu.get()
path = Path("benchmarks/kmeans.fut"); text = path.read_text()
shapes = [dict(n=1 << 20, k=16, d=34), dict(n=1 << 20, k=16, d=8), dict(n=1 << 20, k=16, d=64), dict(n=1 << 18, k=256, d=34)]
variants = {"bounded": Options(), "bounded, n k known": None, "sized d": None}
for sh in shapes:
    prog = None
    res = {}
    for label, o in variants.items():
        if label == "bounded, n k known":
            o = Options(sizes=(("k", sh["k"]), ("n", sh["n"])))
        if label == "sized d":
            o = Options(sizes=(("d", sh["d"]),))
        if label == "sized all":
            o = Options(sizes=tuple(sorted(sh.items())))
        v = run_all(text, path.name, o)
        mod, cuda, prog = v["verify"], v["render"], v["check"]
        inputs = make_inputs(prog, sh, load_spec(path), 0)
        k = mod.select(sh, gpu.sm_count)
        cands = [(label, k, cuda)]
        if label == "bounded":
            # hand edits of the bounded CUDA: the row loop unrolled to the bound with a guard
            e1 = re.sub(r"for \(int (f\w*) = 0; \1 < d; \1 \+= 1\) \{", "#pragma unroll 4\n for (int \\1 = 0; \\1 < d; \\1 += 1) {", cuda)
            e2 = re.sub(r"for \(int (f\w*) = 0; \1 < d; \1 \+= 1\) \{", "#pragma unroll\n for (int \\1 = 0; \\1 < 64; \\1 += 1) if (\\1 < d) {", cuda)
            e3 = re.sub(r"for \(int (f\w*) = 0; \1 < d; \1 \+= 1\) \{", "#pragma unroll\n for (int \\1 = 0; \\1 < 64; \\1 += 1) if (\\1 >= d) break; else {", cuda)
            cands += [("bounded, unroll 4", k, e1), ("bounded, unrolled to 64 guarded", k, e2), ("bounded, unrolled, break", k, e3)]
        want = None
        for lab, kk, cu in cands:
            try:
                out, t = gpu.run(kk, cu, inputs, sh, repeat=30)
                _, t = gpu.run(kk, cu, inputs, sh, repeat=30)
            except Exception as e:
                print(sh, lab, "ERROR", str(e)[:300], flush=True); continue
            res[lab] = statistics.median(t)
            if want is None:
                want = out
            ok = all(np.array_equal(a, b) for a, b in zip(out, want))
            print(f"{sh} {lab:36s} {kk.name:40s} {statistics.median(t):.4f} ms {'same' if ok else 'DIFFERENT'}", flush=True)
