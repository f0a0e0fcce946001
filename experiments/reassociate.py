"""--fast-math's reordering of float sums and products (tiler/lower/reassociate.py),
before and after, as two `tiler bench` runs of each program in one process
(every variant checked first, median of 20; "before" compiles with the
reordering switched off, which is the fast-math kernel of 2026-11-22):

    python experiments/reassociate.py nbody3d nbody3d:n=65536 lavamd_rodinia mriq nbody lavamd kmeans

Writes $OUT (or /tmp)/reassociate.json; RESULTS.md, "Sums and products reordered".
"""
import json
import os
import sys

sys.path.insert(0, ".")
import tiler.lower as lower  # noqa: E402
from tiler.analyse import Options  # noqa: E402
from tiler.bench import Variant, bench_one  # noqa: E402


def V(label, **kw):
    return Variant(label, Options(**kw))


FAST = [V("tiled"), V("fast math", fast_math=True)]
PLAN = {
    "nbody3d": FAST + [V("fast math, tile 512, unroll 8", fast_math=True, tile=(512,), unroll=8),
                       V("fast math, tile 512, unroll 4", fast_math=True, tile=(512,), unroll=4),
                       V("fast math, tile 512, unroll 16", fast_math=True, tile=(512,), unroll=16),
                       V("fast math, unroll 8", fast_math=True, unroll=8)],
    "lavamd_rodinia": FAST + [V("fast math, packed", fast_math=True, pack=True),
                              V("fast math, 2 a thread", fast_math=True, register_tile=(1, 2))],
    "mriq": FAST, "nbody": FAST, "lavamd": FAST, "kmeans": FAST,
}
ordered = lower.loop_levels
out = {}
for arg in sys.argv[1:]:
    name, _, given = arg.partition(":")
    sizes = {k: int(v) for k, v in (p.split("=") for p in given.split(",") if p)}
    for when, levels in (("before", lambda kernel: None), ("after", ordered)):
        lower.loop_levels = levels
        res = bench_one(name, "full", sizes, 20, PLAN[name])
        print(f"== {name} {res['sizes']} {res['device']} ({when})")
        for r in res["rows"]:
            tf = f"{r.gflops / 1000:7.2f} TFLOP/s" if r.gflops else ""
            print(f"  {r.variant:40s} {r.block:8s} {r.ms:9.4f} ms {tf} {r.check}", flush=True)
        out[f"{arg} {when}"] = {"sizes": res["sizes"], "device": res["device"],
                                "rows": [{"variant": r.variant, "block": r.block, "ms": r.ms, "gflops": r.gflops}
                                         for r in res["rows"]]}
lower.loop_levels = ordered
with open(os.path.join(os.environ.get("OUT", "/tmp"), "reassociate.json"), "w") as f:
    json.dump(out, f, indent=1)
