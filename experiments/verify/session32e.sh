#!/bin/bash
# Thirty-second session, fifth call: scans down columns (lower/scan_columns.py: a thread a column): the scan's GPU
# tests (rows and columns), memcheck and racecheck on the column programs, the column corpus programs against
# untiled and their twins at the three sizes, and the GPU fuzz again.
set -u
out=$(realpath -m "${OUT:-session32e}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="scan" SHARDS=8 GPU_TESTS_S=150 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
for tool in memcheck racecheck; do
  timeout 80 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py \
    -k "scans_match and (cols_ or e_col_) and (257 or 2049)" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1) $(grep -c 'ERROR SUMMARY: [1-9]' "$log/sanitize-$tool.log") summaries with errors"
done
echo "== after tests $(( $(date +%s) - start )) s"
only="--only e_col_cumsum_sales_f32 --only e_col_excl_offsets_int --only e_col_running_max_ratio_f64"
timeout 150 python3 -m tiler corpus corpus $only --sizes small,medium,large --peer --peer-warmers 3 \
  --json "$out/corpus-cols.json" > "$log/corpus-cols.txt" 2>&1
echo "== corpus rc=$?"; grep -E "peer/tiler|against the better|slower" "$log/corpus-cols.txt" | cut -c1-220
echo "== after corpus $(( $(date +%s) - start )) s"
timeout 90 python3 -m tiler fuzz 40 --gpu --seed 60 --out "$out/fuzz-failures" > "$log/fuzz.txt" 2>&1
echo "fuzz rc=$?"; tail -2 "$log/fuzz.txt"
echo "== total $(( $(date +%s) - start )) s"
