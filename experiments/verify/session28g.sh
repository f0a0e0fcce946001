#!/bin/bash
# Twenty-eighth session, seventh call: a wrapped window wider than the array across several blocks (the
# twenty-seventh session's note: reasoned safe, not GPU-tested): its GPU test, memcheck and racecheck. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28g}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "wrapped_window" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "wrapped_window_wider and (2100 or 4500 or 5)" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1)"
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session28g-logs.tgz" -C "$out" logs
