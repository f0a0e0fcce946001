#!/bin/bash
# Twenty-sixth session, second call: tiler's march kernel for the star with consecutive rows a thread (unclamped
# indices inside, so nvcc loads a shared neighbour once for the thread's points), for rows, points along x,
# block width and planes a block (experiments/windows/k26/star25_r{rows}x{across}[_t{threads x}_z{planes}].cu),
# beside the start's kernel and the hand-written one. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session26b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
cd experiments/windows
for round in 1 2; do
  timeout 150 python3 march_generated.py k26/star25_start.cu k26/star25_r3x1.cu k26/star25_r4x1.cu k26/star25_r3x2.cu \
    k26/star25_r4x2.cu k26/star25_r2x2.cu k26/star25_r3x2_t32_z64.cu k26/star25_r3x2_t64_z32.cu k26/star25_r4x1_t64_z32.cu \
    k26/star25_r3x1_t32_z64.cu > "$log/generated$round.log" 2>&1
  echo "round $round rc=$?"; grep -E " ms|WRONG|Error|rror" "$log/generated$round.log" | grep -v "^ptxas"
done
grep -E "registers|spill" "$log/generated1.log" | sort | uniq -c | head -30
tar -czf "$out/session26b-logs.tgz" -C "$out" logs && rm -rf "$log"
