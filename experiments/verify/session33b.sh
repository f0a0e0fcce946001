#!/bin/bash
# Thirty-third session, second call: chains of scans (analyse/chains.py; lower/scan.py: a stage a level). The scan
# GPU tests (the chain programs among them), memcheck and racecheck on the chain tests, e_balance_drawdown_f64
# against untiled and its twin at the three sizes (the session's start, .head, then now), the crossover of scan
# and untiled kernels (the chain's too), and the GPU fuzz (chains now generated).
set -u
out=$(realpath -m "${OUT:-session33b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="scan" SHARDS=8 GPU_TESTS_S=170 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
for tool in memcheck racecheck; do
  timeout 80 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py \
    -k "scans_match and (chain or drawdown) and (257 or 2049)" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1) $(grep -c 'ERROR SUMMARY: [1-9]' "$log/sanitize-$tool.log") summaries with errors"
done
echo "== after tests $(( $(date +%s) - start )) s"
for tree in head now; do
  dir=.; [ $tree = head ] && dir=.head
  (cd $dir && timeout 120 python3 -m tiler corpus $(realpath corpus 2>/dev/null || echo ../corpus) --only e_balance_drawdown_f64 \
    --sizes small,medium,large --peer --peer-warmers 3 --json "$out/corpus-drawdown-$tree.json") > "$log/corpus-drawdown-$tree.txt" 2>&1
  echo "== corpus $tree rc=$?"; grep -E "peer/tiler|against the better|slower|wrong|FAIL" "$log/corpus-drawdown-$tree.txt" | cut -c1-230
done
echo "== after corpus $(( $(date +%s) - start )) s"
timeout 120 python3 experiments/verify/scan_crossover.py "$out/crossover.json" > "$log/crossover.txt" 2>&1
echo "crossover rc=$?"; grep -v Warning "$log/crossover.txt"
echo "== after crossover $(( $(date +%s) - start )) s"
timeout 200 python3 -m tiler fuzz 250 --gpu --seed 0 --out "$out/fuzz-failures" > "$log/fuzz.txt" 2>&1
echo "fuzz rc=$?"; tail -2 "$log/fuzz.txt"
echo "== total $(( $(date +%s) - start )) s"
