#!/bin/bash
# Twenty-ninth session, third call (issue 58): why the first TMA kernels wrote no outputs: each run alone at a
# small size against the interpreter, then under compute-sanitizer memcheck. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session29c}")
log=$out/logs
mkdir -p "$log"
D=experiments/verify/tma_debug.py
timeout 120 python3 $D tests/programs/tensor_cores/mm_abt_f32.fut 2048 256 2>&1 | tail -12 | tee "$log/abt.log"
timeout 120 python3 $D benchmarks/mm_bf16.fut 2048 256 2>&1 | tail -12 | tee "$log/bf16.log"
timeout 150 compute-sanitizer --tool memcheck python3 $D tests/programs/tensor_cores/mm_abt_f32.fut 2048 256 \
  > "$log/memcheck.log" 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|Invalid|Error|error" "$log/memcheck.log" | head -12
tar -czf "$out/session29c-logs.tgz" -C "$out" logs
