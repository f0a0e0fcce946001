#!/bin/bash
# Twenty-fifth session, fifth call: the landed tree (a second body only where it removes a branch; step-invariant
# reads made once): the march, window and halo GPU tests, memcheck and racecheck, the fuzzer's marched stars (seed 27
# of the replay's fuzz programs added) at inside sizes and drawn sizes. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session25e}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 120 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "march or window or halo" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "march_versions and (inside or 133) and (star25 or clamped or 7pt)" \
    > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1)"
done
echo "== $(( $(date +%s) - start )) s"
seeds=$(cat experiments/windows/march-seeds.txt)
timeout 130 python3 experiments/windows/march_fuzz.py $seeds > "$log/march-fuzz.log" 2>&1
echo "march fuzz inside rc=$? $(tail -1 "$log/march-fuzz.log")"; grep -vE ": ok$" "$log/march-fuzz.log" | head -5
timeout 110 python3 experiments/windows/march_fuzz.py --drawn $seeds > "$log/march-fuzz-drawn.log" 2>&1
echo "march fuzz drawn rc=$? $(tail -1 "$log/march-fuzz-drawn.log")"; grep -vE ": ok$" "$log/march-fuzz-drawn.log" | head -5
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session25e-logs.tgz" -C "$out" logs && rm -rf "$log"
