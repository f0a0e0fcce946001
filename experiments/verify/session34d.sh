#!/bin/bash
# Thirty-fourth session, fourth call: the scan versions as they land (a warp a row first where rows are many): the
# scan GPU tests, warp against block a row where rows are fewer or longer, the corpus's row scans at the session's
# start (.head) and now (now against the twins too), and the GPU fuzz.
set -u
out=$(realpath -m "${OUT:-session34d}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="scan" SHARDS=8 GPU_TESTS_S=150 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
echo "== after tests $(( $(date +%s) - start )) s"
POINTS="1024x4096,1024x1024,2048x16384,4096x65536,16384x32768,512x2048" timeout 100 python3 experiments/verify/warp_scan.py \
  "$out/warp_scan_more.json" 2>&1 | grep -v Warn | tee "$log/warp_scan_more.txt"
echo "== after sweep $(( $(date +%s) - start )) s"
only="--only e_row_count_min_int --only e_row_runmean_peak_f32 --only e_series_wealth_logret_f64"
corpus=$(realpath corpus)
(cd .head && timeout 120 python3 -m tiler corpus "$corpus" $only --sizes small,medium,large,short,tall \
  --json "$out/corpus-head.json") > "$log/corpus-head.txt" 2>&1
echo "== corpus head rc=$? $(( $(date +%s) - start )) s"
timeout 150 python3 -m tiler corpus corpus $only --sizes small,medium,large,short,tall --peer --peer-warmers 4 \
  --json "$out/corpus-now.json" > "$log/corpus-now.txt" 2>&1
echo "== corpus now rc=$? $(( $(date +%s) - start )) s"
python3 experiments/verify/compare_corpus.py "$out/corpus-head.json" "$out/corpus-now.json"
grep -E "against the better|slower than untiled|wrong|FAIL" "$log/corpus-now.txt" | cut -c1-200
timeout 100 python3 -m tiler fuzz 60 --gpu --seed 0 --out "$out/fuzz-failures" > "$log/fuzz.txt" 2>&1
echo "fuzz rc=$?"; tail -2 "$log/fuzz.txt"
echo "== total $(( $(date +%s) - start )) s"
