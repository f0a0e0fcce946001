#!/bin/bash
# Twenty-sixth session, tenth call: the wrapped copy's remainder made positive by adding n to it (no int overflow
# past 2^30 elements, the review's find): the wrapped-window GPU tests and memcheck on them. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session26j}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 100 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py -k "wrapped_window or window_versions" \
  > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -10
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
  tests/test_gpu.py -k "wrapped_window" > "$log/sanitize-memcheck.log" 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$log/sanitize-memcheck.log" | tail -1) $(grep -E 'passed|failed' "$log/sanitize-memcheck.log" | tail -1)"
tar -czf "$out/session26j-logs.tgz" -C "$out" logs && rm -rf "$log"
