#!/bin/bash
# Twenty-eighth session, tenth call (issue 58): f64 products on the FP64 units in chunks of 8, tiles in groups of
# 8 rows against the launch's order, at 2048^3, 3000^3, 4096^3, 8192^3 and a tall 8192 x 2048 x 8192, twice
# each (the 8192^3 spread was about 1 ms). Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28j}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
V=$(realpath experiments/verify/variants.py)
B=$(realpath benchmarks)
for S in m=2048,n=2048,q=2048 m=3000,n=3000,q=3000 m=4096,n=4096,q=4096 m=8192,n=8192,q=8192 m=8192,n=2048,q=8192; do
  for round in 1 2; do
    timeout 150 python3 "$V" $B/mm_f64.fut $S now:tensor_cores=1 g8:tensor_cores=1,group_rows=8 \
      > "$log/f64-$S-$round.log" 2>&1
    echo "== $S round $round $(( $(date +%s) - start )) s"; grep " ms" "$log/f64-$S-$round.log"
  done
done
tar -czf "$out/session28j-logs.tgz" -C "$out" logs
