#!/bin/bash
# Thirty-fourth session, fifth call: the row scans' thresholds as they land (a warp a row from 1,024 rows of at most
# 4,096 positions, 2,048 of any): the corpus's row scans at the session's start (.head) and now, now against the
# twins too; the scan GPU tests.
set -u
out=$(realpath -m "${OUT:-session34e}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
only="--only e_row_count_min_int --only e_row_runmean_peak_f32 --only e_series_wealth_logret_f64"
corpus=$(realpath corpus)
(cd .head && timeout 100 python3 -m tiler corpus "$corpus" $only --sizes small,medium,large,short,tall \
  --json "$out/corpus-head.json") > "$log/corpus-head.txt" 2>&1
echo "== corpus head rc=$? $(( $(date +%s) - start )) s"
timeout 130 python3 -m tiler corpus corpus $only --sizes small,medium,large,short,tall --peer --peer-warmers 4 \
  --json "$out/corpus-now.json" > "$log/corpus-now.txt" 2>&1
echo "== corpus now rc=$? $(( $(date +%s) - start )) s"
python3 experiments/verify/compare_corpus.py "$out/corpus-head.json" "$out/corpus-now.json"
grep -E "against the better|slower than untiled|wrong|FAIL" "$log/corpus-now.txt" | cut -c1-200
OUT=$log/tests KEYS="scan" SHARDS=8 GPU_TESTS_S=100 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
echo "== total $(( $(date +%s) - start )) s"
