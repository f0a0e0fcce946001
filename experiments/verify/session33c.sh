#!/bin/bash
# Thirty-third session, third call: the GPU fuzz that session33b's time limit cut: every seed below 400 whose
# program holds a chain of scans (tiler/fuzz/prefixes.py), then seeds 0-99.
set -u
out=$(realpath -m "${OUT:-session33c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
for s in 2 16 76 100 150 153 187 218 261 267 291 292 300 356 372; do
  timeout 40 python3 -m tiler fuzz 1 --gpu --seed $s --out "$out/fuzz-failures" > "$log/fuzz-$s.txt" 2>&1
  echo "seed $s rc=$? $(tail -1 "$log/fuzz-$s.txt")"
done
echo "== after chain seeds $(( $(date +%s) - start )) s"
timeout 240 python3 -m tiler fuzz 100 --gpu --seed 0 --out "$out/fuzz-failures" > "$log/fuzz.txt" 2>&1
echo "fuzz rc=$?"; tail -2 "$log/fuzz.txt"
echo "== total $(( $(date +%s) - start )) s"
