"""k-means compiled without --size d: the centres loop of the bounded kernel unrolled and jammed around the
row loop by hand (J = 2, 4, 8), against the kernel sized for d = 34. Written against the kernel before tiler
jammed it (lower/body.py JAM): it stops where its text is no longer there.

    python experiments/jam.py
"""
import statistics
from pathlib import Path
import numpy as np
from tiler.pipeline import run_all
from tiler.analyse import Options
from tiler.workload import make_inputs, load_spec
from tiler.runtime import Gpu

OLD = """    for (int j = 0; j < 64; j += 1) {  // kmeans.fut:11
      float s = 0.0f;  // kmeans.fut:12
      for (int f = 0; f < d; f += 1) {  // kmeans.fut:12
        const float t = sh_p[threadIdx.x * 65 + f] - sh_cc[j * 64 + f];  // kmeans.fut:13
        s = s + t * t;
      }
      const int best_next = s < bestd_2 ? kk + j : best_2;
      const float bestd_next = s < bestd_2 ? s : bestd_2;
      best_2 = best_next;
      bestd_2 = bestd_next;
    }
"""

def jammed(J):
    decl = "".join(f"      float s{u} = 0.0f;\n" for u in range(J))
    body = "".join(f"        const float t{u} = pf - sh_cc[(j + {u}) * 64 + f]; s{u} = s{u} + t{u} * t{u};\n" for u in range(J))
    upd = "".join(f"      if (s{u} < bestd_2) {{ best_2 = kk + j + {u}; bestd_2 = s{u}; }}\n" for u in range(J))
    return (f"    for (int j = 0; j < 64; j += {J}) {{\n{decl}"
            f"      for (int f = 0; f < d; f += 1) {{\n        const float pf = sh_p[threadIdx.x * 65 + f];\n{body}      }}\n{upd}    }}\n")

gpu = Gpu.get()
path = Path("benchmarks/kmeans.fut"); text = path.read_text()
v = run_all(text, path.name, Options()); cuda = v["render"]; mod = v["verify"]; prog = v["check"]
sized = run_all(text, path.name, Options(sizes=(("d", 34),)))
assert OLD in cuda
for sh in (dict(n=1 << 18, k=256, d=34), dict(n=1 << 18, k=256, d=16), dict(n=1 << 18, k=256, d=64), dict(n=1 << 20, k=64, d=34)):
    inputs = make_inputs(prog, sh, load_spec(path), 0)
    k = mod.select(sh, gpu.sm_count)
    ref = None
    cands = [("bounded", k, cuda)] + [(f"jam {J}", k, cuda.replace(OLD, jammed(J))) for J in (2, 4, 8)]
    sk = sized["verify"].select(sh, gpu.sm_count) if sh["d"] == 34 else None
    if sk is not None:
        cands.append(("sized d=34", sk, sized["render"]))
    for lab, kk, cu in cands:
        out, t = gpu.run(kk, cu, inputs, sh, repeat=30)
        _, t = gpu.run(kk, cu, inputs, sh, repeat=30)
        ref = out if ref is None else ref
        ok = all(np.array_equal(a, b) for a, b in zip(out, ref))
        print(f"{sh} {lab:12s} {statistics.median(t):.4f} ms {'same' if ok else 'DIFFERENT'}", flush=True)
