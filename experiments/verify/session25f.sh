#!/bin/bash
# Twenty-fifth session, sixth call: the march's halo without the plane's corners where no read reaches one (star25:
# 608 halo loads a block a step instead of 672): the star's kernel alone as dad2946 and this tree generate it, beside
# the hand-written one; the march GPU tests (new: a stencil with diagonal reads, corners staged), memcheck and
# racecheck; then tiler bench star25 in this tree. Logs to $OUT. (k25/star25_corners.cu came from the tried change,
# which was not landed, and is not kept: the script no longer runs as it stands.)
set -u
out=$(realpath -m "${OUT:-session25f}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(cd experiments/windows && timeout 60 python3 march_generated.py k25/star25_hoisted.cu k25/star25_corners.cu \
  k25/star25_hoisted.cu k25/star25_corners.cu) > "$log/variants.log" 2>&1; echo "variants rc=$?"
grep -E "ms \(|WRONG|Error|copy" "$log/variants.log"
timeout 90 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py -k "march" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "march_versions and (inside or 133) and (star25 or diagonal)" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1)"
done
echo "== $(( $(date +%s) - start )) s"
timeout 110 python3 -m tiler bench star25 --repeat 10 --json "$log/bench-now.json" > "$log/bench-now.log" 2>&1
echo "bench rc=$?"; grep -E "^│ (untiled|tiled|copy)|^[a-z_0-9]+ \(" "$log/bench-now.log" | head -6
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session25f-logs.tgz" -C "$out" logs && rm -rf "$log"
