"""Which kernels a launch of each corpus program picks at each size set (on a GPU of 132 SMs): the picked
version, the version it races first (split-K's next, a few-points version's fallback) and its rival.
python3 experiments/verify/picked.py OUT.json [PROGRAM...] (from a tree's root): compare two trees' files to
find the (program, size) pairs a rule changes, before timing them."""
import glob
import json
import sys
import tomllib

sys.path.insert(0, ".")
from tiler import pipeline  # noqa: E402

SMS = 132
out = {}
names = sys.argv[2:]
for f in sorted(glob.glob("corpus/*.fut")):
    stem = f.split("/")[-1][:-4]
    if names and stem not in names:
        continue
    spec = tomllib.load(open(f[:-4] + ".toml", "rb"))
    try:
        m = pipeline.run_to("lower", open(f).read(), f)
    except Exception as e:  # noqa: BLE001
        out[stem] = {"error": str(e)[:200]}
        continue
    for size in ("small", "medium", "large"):
        sizes = spec.get("sizes", {}).get(size)
        if sizes is None:
            continue
        try:
            picked = m.select(sizes, SMS)
            ahead, fallback = m.ahead(sizes, SMS), m.fallback(sizes, SMS)
            rival = m.rival(picked)
            out[f"{stem}:{size}"] = [k.name if k is not None else None for k in (picked, ahead, fallback, rival)]
        except Exception as e:  # noqa: BLE001
            out[f"{stem}:{size}"] = {"error": str(e)[:200]}
json.dump(out, open(sys.argv[1], "w"), indent=1)
