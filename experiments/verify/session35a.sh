#!/bin/bash
# Thirty-fifth session, first call: what the last one left unrun (session34f: a warp a row racing a block a row
# first, the reviews' mends; start .head = 762b3ca vs now), torch.compile per shape (dynamic=False) against the
# default's automatic dynamic shapes on the row counts, and SGEMM variants (experiments/mm_pipeline.py).
set -u
out=$(realpath -m "${OUT:-session35a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
OUT=$out/s34f bash experiments/verify/session34f.sh > "$log/session34f.txt" 2>&1
cat "$log/session34f.txt" | cut -c1-160
echo "== session34f $(( $(date +%s) - start )) s"
corpus=$(realpath corpus)
only="--only e_row_count_min_int --only c_softmax_inline_f32 --only a_matvec_rows_f32"
(cd .head && timeout 150 python3 -m tiler corpus "$corpus" $only --sizes small,large,short --peer --json "$out/peer-head.json") \
  > "$log/peer-head.txt" 2>&1
echo "== peer head rc=$? $(( $(date +%s) - start )) s"
timeout 150 python3 -m tiler corpus corpus $only --sizes small,large,short --peer --json "$out/peer-now.json" > "$log/peer-now.txt" 2>&1
echo "== peer now rc=$? $(( $(date +%s) - start )) s"
python3 - "$out/peer-head.json" "$out/peer-now.json" <<'PY'
import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f)); recs = d['records'] if isinstance(d, dict) else d
    for r in recs:
        ms = r.get('ms') or {}
        print(f.split('/')[-1], r['program'], r['size_set'], {k: round(v, 4) for k, v in ms.items() if k in ('default', 'torch eager', 'torch.compile')})
PY
cd experiments && ONLY=0,18,19,20,21,22,23,24,25 timeout 300 python3 mm_pipeline.py 4096 8192 2>&1 | tee "$log/mm_pipeline.txt" | cut -c1-200
echo "== total $(( $(date +%s) - start )) s"
