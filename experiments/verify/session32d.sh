#!/bin/bash
# Thirty-second session, fourth call: after the review's mends (an exclusive scan never computes the term at the
# last position it walks; shares whole rounds; the scan unraced from SCAN_UNRACED positions, raced below; the
# test's ints read exactly) and suffixes walked backwards: the scan's GPU tests, memcheck and racecheck on the
# scan tests that read past an exclusive prefix's end or walk backwards, the crossover against the untiled
# kernel, the prefix programs of the corpus at medium and large sizes, and the GPU fuzz with prefix folds.
set -u
out=$(realpath -m "${OUT:-session32d}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="scan" SHARDS=8 GPU_TESTS_S=150 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py \
    -k "scans_match and (diffs_excl or e_compact or suffix or rows_after) and (257 or 2049)" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1) $(grep -c 'ERROR SUMMARY: [1-9]' "$log/sanitize-$tool.log") summaries with errors"
done
echo "== after tests $(( $(date +%s) - start )) s"
timeout 90 python3 experiments/verify/scan_crossover.py "$out/crossover.json" > "$log/crossover.txt" 2>&1
echo "crossover rc=$?"; cat "$log/crossover.txt" | grep -v Warning
only=""
for p in b_prefix_masked_i64 e_compact_offsets_i64 e_hist_cdf_f32 e_row_count_min_int e_row_runmean_peak_f32 \
         e_series_wealth_logret_f64; do only="$only --only $p"; done
for s in medium large; do
  timeout 100 python3 -m tiler corpus corpus $only --sizes $s --peer --peer-warmers 6 --json "$out/corpus-$s.json" \
    > "$log/corpus-$s.txt" 2>&1
  echo "== $s rc=$?"; grep -E "peer/tiler|against the better|slower" "$log/corpus-$s.txt" | cut -c1-220
done
echo "== after corpus $(( $(date +%s) - start )) s"
timeout 140 python3 -m tiler fuzz 60 --gpu --seed 0 --out "$out/fuzz-failures" > "$log/fuzz.txt" 2>&1
echo "fuzz rc=$?"; tail -3 "$log/fuzz.txt"
echo "== total $(( $(date +%s) - start )) s"
