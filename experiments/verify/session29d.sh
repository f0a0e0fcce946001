#!/bin/bash
# Twenty-ninth session, fourth call (issue 58): the TMA kernel through the C launcher (experiments/verify/
# tma_harness), and through pycuda with and without TMA, each against a plain sum. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session29d}")
log=$out/logs
mkdir -p "$log"
(cd experiments/verify/tma_harness && nvcc -gencode arch=compute_90a,code=sm_90a -O3 -o "$log/harness" harness.cu) \
  > "$log/build.log" 2>&1; echo "build rc=$?"
for n in 256 1000; do timeout 60 "$log/harness" $n 2>&1 | tee -a "$log/harness.log"; done
D=experiments/verify/tma_debug.py
timeout 120 python3 $D tests/programs/tensor_cores/mm_abt_f32.fut 2048 256 no 2>&1 | grep -v Warn | tail -8 | tee "$log/notma.log"
rm -f "$log/harness"
tar -czf "$out/session29d-logs.tgz" -C "$out" logs
