#!/bin/bash
# Thirty-fourth session, third call: row scans a warp a row (lower/scan.py `_scan32`): the scan GPU tests (every
# version against the interpreter, the warp's against NumPy), memcheck and racecheck on them, then the sweep of
# warp against block a row, untiled and tiled kernels (warp_scan.py).
set -u
out=$(realpath -m "${OUT:-session34c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="scan" SHARDS=8 GPU_TESTS_S=150 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
for tool in memcheck racecheck; do
  timeout 80 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py \
    -k "(scans_match and (rows_ or row_count or runmean) and (37 or 257)) or (warp_a_row and 9-2049)" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1) $(grep -c 'ERROR SUMMARY: [1-9]' "$log/sanitize-$tool.log") summaries with errors"
done
echo "== after tests $(( $(date +%s) - start )) s"
timeout 280 python3 experiments/verify/warp_scan.py "$out/warp_scan.json" 2>&1 | grep -v Warn | tee "$log/warp_scan.txt"
echo "== total $(( $(date +%s) - start )) s"
