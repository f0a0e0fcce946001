#!/bin/bash
# Thirty-second session, third call: after the exclusive scan's shuffle was taken out of its select (every lane
# shuffles; session32b hung there): the scan's GPU tests, memcheck and racecheck on the exclusive scan, the
# prefix programs of the corpus at small and large sizes against untiled and their twins.
set -u
out=$(realpath -m "${OUT:-session32c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="scan" SHARDS=8 GPU_TESTS_S=200 SANITIZE="e_compact_offsets_i64" \
  bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
grep -E "rc=|ERROR SUMMARY" "$log/tests/sanitizer.log"
echo "== after tests $(( $(date +%s) - start )) s"
only=""
for p in b_prefix_masked_i64 e_compact_offsets_i64 e_hist_cdf_f32 e_row_count_min_int e_row_runmean_peak_f32 \
         e_series_wealth_logret_f64; do only="$only --only $p"; done
for s in small large; do
  timeout 120 python3 -m tiler corpus corpus $only --sizes $s --peer --peer-warmers 6 --json "$out/corpus-$s.json" \
    > "$log/corpus-$s.txt" 2>&1
  echo "== $s rc=$?"; grep -E "peer/tiler|against the better|slower" "$log/corpus-$s.txt" | cut -c1-220
done
echo "== total $(( $(date +%s) - start )) s"
