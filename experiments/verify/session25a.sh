#!/bin/bash
# Twenty-fifth session, first call: the march with march-inside.patch applied (a body without the program's edge
# tests for steps whose block lies inside), GPU-checked with the review's mends of 5fa96d4: the march, window and
# halo GPU tests (new: a wide x halo, a clamped f64 stencil, sizes with inside blocks, a march without a window
# version), memcheck and racecheck on inside blocks, and the star's march kernel timed as the session's start
# (218f8b4) and this tree generate it, beside the hand-written kernel. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session25a}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(cd experiments/windows && timeout 60 python3 march_generated.py k25/star25_head.cu k25/star25_inside.cu) \
  > "$log/variants.log" 2>&1; echo "variants rc=$?"; grep -E "ms|WRONG|Error" "$log/variants.log" | head
echo "== $(( $(date +%s) - start )) s"
timeout 240 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "march or window or halo" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
echo "== $(( $(date +%s) - start )) s"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "(march_versions and inside and (star25 or wide_x or clamped)) or march_without" \
    > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) \
$(tail -1 "$log/sanitize-$tool.log")"
  echo "== $(( $(date +%s) - start )) s"
done
timeout 150 python3 experiments/windows/march_fuzz.py $(cat experiments/windows/march-seeds.txt) > "$log/march-fuzz.log" 2>&1
echo "march fuzz rc=$? $(tail -1 "$log/march-fuzz.log")"; grep -vE ": ok$" "$log/march-fuzz.log" | head -10
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session25a-logs.tgz" -C "$out" logs && rm -rf "$log"
