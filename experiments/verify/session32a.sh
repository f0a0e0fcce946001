#!/bin/bash
# Thirty-second session, first call: the in-place versions (Plan.in_place) on the GPU as modules, with the
# launch paths' tests; memcheck/racecheck on a product compiled at 4096 launched small; the prefix program's
# timings at the three sizes (the starting point for a scan).
set -u
out=$(realpath -m "${OUT:-session32a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="copied_by_tma or operand or host_launcher or tensor_cores or transpos or launcher" \
  SHARDS=8 GPU_TESTS_S=300 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
for s in small medium large; do
  timeout 120 python3 -m tiler corpus corpus --only b_prefix_masked_i64 --sizes $s --peer \
    --json "$out/prefix-$s.json" > "$log/prefix-$s.txt" 2>&1; tail -5 "$log/prefix-$s.txt"
done
echo "== total $(( $(date +%s) - start )) s"
