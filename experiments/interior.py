"""Interior blocks (--interior) against the default, twice each in one run:

    python experiments/interior.py mm,aat,mm_rows,nbody3d,nbody,mriq,lavamd_rodinia

RESULTS.md, "Interior blocks".
"""
import sys, json, os
sys.path.insert(0, ".")
from tiler.analyse import Options
from tiler.bench import bench_one, Variant
names = sys.argv[1].split(",")
out = {}
for name in names:
    vs = [Variant("default", Options()), Variant("interior", Options(interior=True)),
          Variant("default again", Options()), Variant("interior again", Options(interior=True))]
    res = bench_one(name, "full", {}, 20, vs)
    line = [(r.variant, r.block, round(r.ms, 4)) for r in res["rows"]]
    print(name, line, flush=True)
    out[name] = line
json.dump(out, open(os.path.join(os.environ.get("OUT", "/tmp"), "interior.json"), "w"), indent=1)
