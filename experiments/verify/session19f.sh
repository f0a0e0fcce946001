#!/bin/bash
# Nineteenth session, last call: `tiler fuzz --products --gpu` with sizes past a block's tile (each size from
# 70 to 300 half the time), every version of each product against the interpreter. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session19f}")
mkdir -p "$out"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
timeout ${FUZZ_S:-200} python3 -m tiler fuzz ${FUZZ_N:-48} --seed 40000 --gpu --products --mutations 0 \
  --out "$out/fuzz" > "$out/fuzz.log" 2>&1
echo "fuzz rc=$?: $(grep -E 'programs|GPU batch|GPU check' "$out/fuzz.log" | tail -4 | tr '\n' ' ')"
echo "total: $(( $(date +%s) - start )) s"
