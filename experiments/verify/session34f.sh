#!/bin/bash
# Thirty-fourth session, sixth call: a warp a row now races the version that follows first (a block a row), then
# the winner the untiled kernel: the corpus's row scans at large and short sizes at the session's start (.head) and
# now; the scan GPU tests.
set -u
out=$(realpath -m "${OUT:-session34f}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
only="--only e_row_count_min_int --only e_row_runmean_peak_f32 --only e_series_wealth_logret_f64"
corpus=$(realpath corpus)
(cd .head && timeout 60 python3 -m tiler corpus "$corpus" $only --sizes large,short --json "$out/corpus-head.json") \
  > "$log/corpus-head.txt" 2>&1
echo "== corpus head rc=$? $(( $(date +%s) - start )) s"
timeout 60 python3 -m tiler corpus corpus $only --sizes large,short --json "$out/corpus-now.json" > "$log/corpus-now.txt" 2>&1
echo "== corpus now rc=$? $(( $(date +%s) - start )) s"
python3 experiments/verify/compare_corpus.py "$out/corpus-head.json" "$out/corpus-now.json" | cut -c1-150
python3 -c "
import json; d=json.load(open('$out/corpus-now.json')); recs=d['records'] if isinstance(d,dict) else d
[print(r['program'], r['size_set'], {k.split(r['program'])[-1]: round(v,4) for k,v in (r.get('race',{}).get('default') or {}).items()}) for r in recs if 'ms' in r]"
OUT=$log/tests KEYS="scan" SHARDS=8 GPU_TESTS_S=80 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
echo "== total $(( $(date +%s) - start )) s"
