#!/bin/bash
# Thirty-fifth session, third call: the whole corpus at its large sizes against its PyTorch twins, torch.compile
# now specialised to each shape (dynamic=False); saved after each program, cut at LIMIT_S.
set -u
out=$(realpath -m "${OUT:-session35c}")
start=$(date +%s)
OUT=$out SETS=large LIMIT_S=${LIMIT_S:-545} TAG=large bash experiments/verify/peer-corpus.sh > "$out.txt" 2>&1
mkdir -p "$out"; mv "$out.txt" "$out/run.txt"
tail -3 "$out/run.txt"
python3 - "$out/peer-large.json" <<'PY'
import json, statistics, sys
sys.path.insert(0, ".")
from tiler.bench.peer import ratio
d = json.load(open(sys.argv[1])); recs = d["records"] if isinstance(d, dict) else d
rows = sorted((x, r["program"], r["size_set"], r["ms"]) for r in recs if (x := ratio(r)) is not None)
print(len(recs), "records,", len(rows), "pairs, median", round(statistics.median(x for x, *_ in rows), 3),
      "below 0.5x", sum(x < 0.5 for x, *_ in rows), "below 1x", sum(x < 1 for x, *_ in rows))
for x, p, s, ms in rows[:45]:
    print(f"{x:.3f} {p} {s}", {k: round(v, 4) for k, v in ms.items() if k in ("default", "untiled", "torch eager", "torch.compile")})
PY
echo "== total $(( $(date +%s) - start )) s"
