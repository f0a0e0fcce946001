#!/bin/bash
# Thirtieth session, first call (issue 58): TF32 A B with B transposed by the launch (K-major, TMA) against B's
# tile in registers; 128 x 128 against 128 x 256 tiles for TMA-fed products by waves; the GPU tests of both, the
# host launcher in C, compute-sanitizer. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session30a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
S=experiments/verify/sweep.py
J=experiments/verify/jobs
timeout 330 python3 $S $J/session30a-tf32.txt 2>&1 | tee "$log/tf32.log" | grep -E "^==| ms|failed"
echo "== $(( $(date +%s) - start )) s"
timeout 120 python3 $S $J/session30a-gate.txt --set tiler.analyse.operand_transposes.MIN_ROWS=1 2>&1 \
  | tee "$log/gate.log" | grep -E "^==| ms|failed"
echo "== $(( $(date +%s) - start )) s"
timeout 300 python3 $S $J/session30a-wide.txt 2>&1 | tee "$log/wide.log" | grep -E "^==| ms|failed"
echo "== $(( $(date +%s) - start )) s"
