#!/bin/bash
# Thirty-third session, fourth call: chains down columns, the row scans' rows on grid x (more than 65,535 rows),
# and the review's mends. The scan GPU tests, memcheck and racecheck on the changed kernels, the GPU fuzz (every
# column chain seed below 1,600 and the row chains' above 100, then seeds 0-99), and the row-scan corpus programs
# at the session's start (.head) and now, with their twins (e_row_count_min_int also at 100,000 x 512).
set -u
out=$(realpath -m "${OUT:-session33d}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="scan" SHARDS=8 GPU_TESTS_S=170 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
for tool in memcheck racecheck; do
  timeout 80 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py \
    -k "scans_match and (cols_chain or e_row_count or chain_rows) and (257 or 2049)" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1) $(grep -c 'ERROR SUMMARY: [1-9]' "$log/sanitize-$tool.log") summaries with errors"
done
echo "== after tests $(( $(date +%s) - start )) s"
for s in 36 106 723 826 839 1011 1046 1048 1241 1287 1312 150 153 187 218 261; do
  timeout 30 python3 -m tiler fuzz 1 --gpu --seed $s --out "$out/fuzz-failures" > /tmp/fuzz-$s.txt 2>&1
  echo "seed $s rc=$? $(tail -1 /tmp/fuzz-$s.txt)"
done | tee "$log/fuzz-chains.txt" | grep -v "0 failures" ; echo "chain seeds: $(grep -c ' 0 failures' "$log/fuzz-chains.txt") of 16 clean"
timeout 150 python3 -m tiler fuzz 100 --gpu --seed 0 --out "$out/fuzz-failures" > "$log/fuzz.txt" 2>&1
echo "fuzz rc=$?"; tail -1 "$log/fuzz.txt"
echo "== after fuzz $(( $(date +%s) - start )) s"
for tree in now head; do
  dir=.; [ $tree = head ] && dir=.head
  (cd $dir && timeout 100 python3 -m tiler corpus corpus --only e_row_count_min_int --only e_row_runmean_peak_f32 \
    --only e_series_wealth_logret_f64 --sizes small,medium,large --peer --peer-warmers 3 \
    --json "$out/corpus-rows-$tree.json") > "$log/corpus-rows-$tree.txt" 2>&1
  echo "== corpus $tree rc=$?"; grep -E "peer/tiler|against the better|slower|wrong|FAIL" "$log/corpus-rows-$tree.txt" | cut -c1-230
  cp corpus/e_row_count_min_int.toml $dir/corpus/e_row_count_min_int.toml 2>/dev/null
  (cd $dir && timeout 120 python3 -m tiler corpus corpus --only e_row_count_min_int --sizes tall --peer --peer-warmers 3 \
    --json "$out/corpus-tall-$tree.json") > "$log/corpus-tall-$tree.txt" 2>&1
  echo "== tall $tree rc=$?"; grep -E "peer/tiler|slower|wrong|FAIL" "$log/corpus-tall-$tree.txt" | cut -c1-230
done
echo "== total $(( $(date +%s) - start )) s"
