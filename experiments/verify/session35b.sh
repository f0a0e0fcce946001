#!/bin/bash
# Thirty-fifth session, second call (four GPUs): the whole corpus against its PyTorch twins with torch.compile
# specialised to each shape (dynamic=False), in four shards side by side (one a GPU, saved after each program),
# then the SGEMM variants (experiments/mm_pipeline.py) on the first GPU.
set -u
out=$(realpath -m "${OUT:-session35b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
for k in 1 2 3 4; do
  (CUDA_VISIBLE_DEVICES=$((k - 1)) OUT=$out/shard$k SHARDS=$k/4 SETS=small,medium,large LIMIT_S=${LIMIT_S:-450} \
     bash experiments/verify/peer-corpus.sh > "$log/shard$k.txt" 2>&1) &
done
wait
echo "== shards $(( $(date +%s) - start )) s"
for k in 1 2 3 4; do grep -E "^exit" "$log/shard$k.txt"; done
python3 - "$out" <<'PY'
import json, statistics, sys
from pathlib import Path
sys.path.insert(0, ".")
from tiler.bench.peer import ratio
recs = []
for f in sorted(Path(sys.argv[1]).glob("shard*/peer-*.json")):
    d = json.loads(f.read_text()); recs += d["records"] if isinstance(d, dict) else d
json.dump({"records": recs}, open(Path(sys.argv[1]) / "peer-all.json", "w"))
rows = sorted((x, r["program"], r["size_set"]) for r in recs if (x := ratio(r)) is not None)
print(len(rows), "pairs, median", round(statistics.median(x for x, *_ in rows), 3), "below 0.5x", sum(x < 0.5 for x, *_ in rows),
      "at 1x or more", sum(x >= 1 for x, *_ in rows))
for s in ("small", "medium", "large"):
    xs = [x for x, _, z in rows if z == s]
    if xs: print(s, len(xs), round(statistics.median(xs), 3), sum(x < 0.5 for x in xs))
for x, p, s in rows[:40]: print(f"{x:.3f} {p} {s}")
PY
cd experiments && CUDA_VISIBLE_DEVICES=0 ONLY=0,18,21,22,24,25 timeout 150 python3 mm_pipeline.py 4096 8192 2>&1 | tee "$log/mm_pipeline.txt" | cut -c1-200
echo "== total $(( $(date +%s) - start )) s"
