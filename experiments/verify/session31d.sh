#!/bin/bash
# Thirty-first session, fourth call: `tiler bench` on benchmarks without twins, this tree and the start (.head/),
# same call (launches now issue prepared calls); the GPU fuzz (products, then any) on this tree.
set -u
out=$(realpath -m "${OUT:-session31d}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
for tree in now head; do
  dir=.; [ $tree = head ] && dir=.head
  (cd $dir && timeout 150 python3 -m tiler bench kmeans matvec colsum softmax layernorm rowsum rowcount mriq nbody \
    --repeat 10 --json "$log/bench-$tree.json" > "$log/bench-$tree.log" 2>&1; echo "bench $tree rc=$? $(( $(date +%s) - start )) s")
done
timeout 120 python3 -m tiler fuzz 60 --seed 31000 --gpu --products > "$log/fuzz-products.log" 2>&1
echo "fuzz products rc=$? $(( $(date +%s) - start )) s"; tail -4 "$log/fuzz-products.log"
timeout 120 python3 -m tiler fuzz 80 --seed 31100 --gpu > "$log/fuzz.log" 2>&1
echo "fuzz rc=$? $(( $(date +%s) - start )) s"; tail -4 "$log/fuzz.log"
python3 - "$log" <<'PY'
import json, sys
log = sys.argv[1]
def rows(p):
    try:
        d = json.load(open(p))
    except Exception as e:
        return {}
    return {(r["benchmark"], v["variant"]): v.get("ms") for r in d.get("results", []) for v in r.get("variants", [])}
n, h = rows(f"{log}/bench-now.json"), rows(f"{log}/bench-head.json")
for k in sorted(n, key=str):
    if k in h and n[k] and h[k]:
        print(f"{k[0]:10s} {k[1]:40s} head {h[k]:9.4f} now {n[k]:9.4f} head/now {h[k]/n[k]:5.2f}")
PY
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session31d-logs.tgz" -C "$out" logs
