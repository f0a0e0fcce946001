"""Two corpus runs' JSON (a tree before a change, then after it, the second with --peer), side by side:
each program and size, the untiled kernel, the default before and after, the better peer and the ratios.
    python3 experiments/verify/compare_corpus.py BEFORE.json AFTER.json"""
import json
import sys


def load(p):
    try:
        d = json.load(open(p))
    except Exception as e:
        print("cannot read", p, e)
        return {}
    recs = d["records"] if isinstance(d, dict) else d
    return {(r["program"], r.get("size_set")): r for r in recs if "ms" in r}
head, now = load(sys.argv[1]), load(sys.argv[2])
for key in sorted(now):
    ms, h = now[key]["ms"], head.get(key, {}).get("ms", {})
    peer = min([ms[k] for k in ("torch eager", "torch.compile") if ms.get(k)] or [float("nan")])
    print(f"{key[0]:28s} {key[1]:7s} untiled {ms.get('untiled', 0):.4f} head {h.get('default', float('nan')):.4f} "
          f"now {ms['default']:.4f} ({now[key]['version']['default'].split(key[0])[-1]}) peer {peer:.4f} "
          f"now/head {h.get('default', float('nan')) / ms['default']:.2f}x peer/now {peer / ms['default']:.2f}x")
