#!/bin/bash
# Twenty-sixth session, first call: the star's march by hand with consecutive rows a thread (their y neighbours
# loaded once) and two points along x (float2), beside tiler's march kernel of 47acef2; then the last session's
# CPU-only changes on the GPU: the march, window and halo GPU tests (march_wrap, march_diagonal among them),
# memcheck and racecheck on inside sizes, the fuzzer's marched stars at inside and drawn sizes. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session26a}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(cd experiments/windows && timeout 120 python3 march.py --consecutive) > "$log/consecutive.log" 2>&1
echo "consecutive rc=$?"; cat "$log/consecutive.log" | grep -vE "^ptxas|^$" | head -40
(cd experiments/windows && timeout 60 python3 march_generated.py k25/star25_now.cu) > "$log/generated.log" 2>&1
echo "generated rc=$?"; grep -E "ms|WRONG|Error" "$log/generated.log" | head
echo "== $(( $(date +%s) - start )) s"
timeout 240 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "march or window or halo" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
echo "== $(( $(date +%s) - start )) s"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "(march_versions and inside) or march_without" \
    > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) \
$(tail -1 "$log/sanitize-$tool.log")"
  echo "== $(( $(date +%s) - start )) s"
done
timeout 120 python3 experiments/windows/march_fuzz.py $(cat experiments/windows/march-seeds.txt) > "$log/march-fuzz.log" 2>&1
echo "march fuzz rc=$? $(tail -1 "$log/march-fuzz.log")"; grep -vE ": ok$" "$log/march-fuzz.log" | head -10
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session26a-logs.tgz" -C "$out" logs && rm -rf "$log"
