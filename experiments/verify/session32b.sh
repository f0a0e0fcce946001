#!/bin/bash
# Thirty-second session, second call: the scan (analyse/scans.py, lower/scan.py) on the GPU: its tests against the
# interpreter and numpy, memcheck and racecheck on its kernels, then the prefix programs of the corpus timed
# against untiled and their twins (eager, torch.compile) at the three sizes.
set -u
out=$(realpath -m "${OUT:-session32b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="scan" SHARDS=4 GPU_TESTS_S=200 \
  SANITIZE="b_prefix_masked_i64 e_hist_cdf_f32 e_row_runmean_peak_f32" bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
grep -E "rc=|ERROR SUMMARY" "$log/tests/sanitizer.log"
only=""
for p in b_prefix_masked_i64 e_compact_offsets_i64 e_hist_cdf_f32 e_row_count_min_int e_row_runmean_peak_f32 \
         e_series_wealth_logret_f64 e_balance_drawdown_f64; do only="$only --only $p"; done
for s in small medium large; do
  timeout 150 python3 -m tiler corpus corpus $only --sizes $s --peer --json "$out/corpus-$s.json" \
    > "$log/corpus-$s.txt" 2>&1
  echo "== $s rc=$?"; grep -A12 "against the better" "$log/corpus-$s.txt" | head -14
done
echo "== total $(( $(date +%s) - start )) s"
