#!/bin/bash
# Twenty-ninth session, eighth call (issue 58): aat in TF32 at 8192 (n = d), TMA against cp.async, each timed
# twice in turn (tiler bench had TMA 3% slower there, session29g). Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session29h}")
log=$out/logs
mkdir -p "$log"
V=$(realpath experiments/verify/variants.py)
timeout 200 python3 "$V" benchmarks/aat.fut n=8192,d=8192 tma:tensor_cores=1 cp:tensor_cores=1,no_tma=1 \
  tma2:tensor_cores=1 cp2:tensor_cores=1,no_tma=1 --repeat 20 2>&1 \
  | tee "$log/aat-8192.log" | grep -E " ms|failed"
tar -czf "$out/session29h-logs.tgz" -C "$out" logs
