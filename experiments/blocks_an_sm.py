"""Blocks an SM (--min-blocks) and fast math on the 1-D kernels, as variants of one
`tiler bench` run each (checked first, median of 20), on the GPU of this host:

    python experiments/blocks_an_sm.py nbody3d,nbody,mriq,lavamd,lavamd_rodinia,kmeans

Writes $OUT (or /tmp)/mb-NAMES.json; RESULTS.md, "Blocks an SM".
"""
import sys, json, os, dataclasses
sys.path.insert(0, ".")
from tiler.analyse import Options
from tiler.bench import bench_one, Variant
V = lambda label, **kw: Variant(label, Options(**kw))
PLAN = {
    "nbody3d": [V("untiled", no_tile=True), V("tiled"), V("tiled, --min-blocks 0 (before)", min_blocks=0),
                V("fast math", fast_math=True), V("fast math, --min-blocks 0", fast_math=True, min_blocks=0),
                V("fast math, tile 512, unroll 8", fast_math=True, tile=(512,), unroll=8),
                V("fast math, tile 512, unroll 8, min-blocks 2", fast_math=True, tile=(512,), unroll=8, min_blocks=2),
                V("fast math, tile 512, unroll 8, min-blocks 2, interior", fast_math=True, tile=(512,), unroll=8, min_blocks=2, interior=True),
                V("fast math, tile 512, unroll 4, min-blocks 2", fast_math=True, tile=(512,), unroll=4, min_blocks=2),
                V("fast math, unroll 8", fast_math=True, unroll=8)],
    "nbody": [V("untiled", no_tile=True), V("tiled"), V("tiled, --min-blocks 0 (before)", min_blocks=0),
              V("2 a thread", register_tile=(2,)), V("2 a thread, min-blocks 0", register_tile=(2,), min_blocks=0)],
    "mriq": [V("untiled", no_tile=True), V("tiled"), V("tiled, --min-blocks 0 (before)", min_blocks=0),
             V("fast math", fast_math=True), V("fast math, --min-blocks 0", fast_math=True, min_blocks=0)],
    "lavamd": [V("untiled", no_tile=True), V("tiled"), V("tiled, --min-blocks 0 (before)", min_blocks=0)],
    "lavamd_rodinia": [V("untiled", no_tile=True), V("tiled"), V("tiled, --min-blocks 0 (before)", min_blocks=0),
                       V("fast math", fast_math=True), V("fast math, --min-blocks 0", fast_math=True, min_blocks=0)],
    "kmeans": [V("untiled", no_tile=True), V("tiled"), V("tiled, --min-blocks 1", min_blocks=1),
               V("tiled, --min-blocks 2", min_blocks=2)],
}
out = {}
for name in sys.argv[1].split(","):
    sizes = dict(a.split("=") for a in sys.argv[2:]) if len(sys.argv) > 2 else {}
    res = bench_one(name, "full", {k: int(v) for k, v in sizes.items()}, 20, PLAN[name])
    print(f"== {name} {res['sizes']} {res['device']}")
    for r in res["rows"]:
        tf = f"{r.gflops/1000:7.2f} TFLOP/s" if r.gflops else ""
        print(f"  {r.variant:58s} {r.block:8s} {r.ms:9.4f} ms {tf} {r.check}", flush=True)
    out[name] = {"sizes": res["sizes"], "device": res["device"],
                 "rows": [{"variant": r.variant, "block": r.block, "ms": r.ms, "gflops": r.gflops} for r in res["rows"]]}
json.dump(out, open(os.path.join(os.environ.get("OUT", "/tmp"), f"mb-{sys.argv[1].replace(',', '-')}.json"), "w"), indent=1)
