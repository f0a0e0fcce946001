#!/bin/bash
# Thirty-third session, first call: what the thirty-second left unrun on a GPU: the scans' GPU tests (the promote
# fix, the exclusive+total refusal, the row kernels without the redundant select), memcheck on row and column scan
# tests, e_col_running_max_ratio_f64 against untiled and its twin, and the GPU fuzz (column folds now generated).
set -u
out=$(realpath -m "${OUT:-session33a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="scan or promot or chain" SHARDS=8 GPU_TESTS_S=170 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py \
  -k "scans_match and (excl or suffix or col) and (257 or 2049)" > "$log/sanitize-memcheck.log" 2>&1
echo "memcheck rc=$? $(grep -E 'passed|failed' "$log/sanitize-memcheck.log" | tail -1) $(grep -c 'ERROR SUMMARY: [1-9]' "$log/sanitize-memcheck.log") summaries with errors"
echo "== after tests $(( $(date +%s) - start )) s"
timeout 100 python3 -m tiler corpus corpus --only e_col_running_max_ratio_f64 --sizes small,medium,large --peer \
  --peer-warmers 3 --json "$out/corpus-colmax.json" > "$log/corpus-colmax.txt" 2>&1
echo "== corpus rc=$?"; grep -E "peer/tiler|against the better|slower|wrong|FAIL" "$log/corpus-colmax.txt" | cut -c1-220
echo "== after corpus $(( $(date +%s) - start )) s"
timeout 170 python3 -m tiler fuzz 100 --gpu --seed 0 --out "$out/fuzz-failures" > "$log/fuzz.txt" 2>&1
echo "fuzz rc=$?"; tail -2 "$log/fuzz.txt"
echo "== total $(( $(date +%s) - start )) s"
