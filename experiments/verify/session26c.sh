#!/bin/bash
# Twenty-sixth session, third call: the consecutive-rows march kernels of session26b with their registers capped
# for the blocks an SM the start's kernel had (__launch_bounds__(threads, blocks): *_b3.cu and the like), since
# loading a shared neighbour once for the thread's points keeps it live longer (78 -> 88 registers: 3 -> 2 blocks
# of 256 threads an SM). Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session26c}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
cd experiments/windows
for round in 1 2; do
  timeout 150 python3 march_generated.py k26/star25_start.cu k26/star25_start_b3.cu k26/star25_r3x1.cu \
    k26/star25_r3x1_b3.cu k26/star25_r4x1_b3.cu k26/star25_r4x1_t64_z32_b3.cu k26/star25_r3x1_t32_z64_b6.cu \
    k26/star25_r2x2.cu k26/star25_r3x2_b2.cu > "$log/generated$round.log" 2>&1
  echo "round $round rc=$?"; grep -E " ms|WRONG|Error|rror" "$log/generated$round.log" | grep -v "^ptxas"
done
tar -czf "$out/session26c-logs.tgz" -C "$out" logs && rm -rf "$log"
