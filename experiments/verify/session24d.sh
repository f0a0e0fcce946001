#!/bin/bash
# Twenty-fourth session, fourth call: the march lowered with one plane buffer and two barriers a step (72
# registers) against the two buffers of session24c (two steps a trip: 104 registers), both as tiler generates
# them, beside the hand-written kernel (experiments/windows/march_generated.py); then this tree's march on the
# GPU tests, memcheck and racecheck, and star25 and stencil3d timed here and in .baseline/ (c2b3d27). Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session24d}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(cd experiments/windows && timeout 60 python3 march_generated.py star25_two_step.cu star25_one_step.cu) \
  > "$log/variants.log" 2>&1; echo "variants rc=$?"; grep -E "ms|WRONG|Error" "$log/variants.log" | head
echo "== $(( $(date +%s) - start )) s"
timeout 60 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py -k "march" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -10
for tool in memcheck racecheck; do
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "march_versions and star25 and odd-run" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1)"
done
echo "== $(( $(date +%s) - start )) s"
for tree in now base; do
  dir=$([ $tree = now ] && echo . || echo .baseline)
  (cd $dir && timeout 70 python3 -m tiler bench star25 stencil3d --repeat 10 --json "$log/bench-$tree.json" \
    > "$log/bench-$tree.log" 2>&1; echo "bench $tree rc=$?")
  grep -E "^│ (untiled|tiled) |^[a-z_0-9]+ \(" "$log/bench-$tree.log" | head -8
  echo "== $(( $(date +%s) - start )) s"
done
tar -czf "$out/session24d-logs.tgz" -C "$out" logs && rm -rf "$log"
