#!/bin/bash
# Thirty-first session, sixth call: after the review's mends (a Python number refused as an argument, a bool
# scalar test): the new test and the launch paths' GPU tests again.
set -u
out=$(realpath -m "${OUT:-session31f}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests KEYS="bool_scalar or interop or torch or cupy or launcher or transpos or split_k or copied_by_tma" \
  SHARDS=8 GPU_TESTS_S=200 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session31f-logs.tgz" -C "$out" logs
