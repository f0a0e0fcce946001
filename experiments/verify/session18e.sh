#!/bin/bash
# Eighteenth session, last call: `tiler fuzz --products --gpu`, the matrix
# products the units take (every layout, type, bias and epilogue), every
# version against the interpreter at random sizes. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session18e}")
mkdir -p "$out"
start=$(date +%s)
timeout ${FUZZ_S:-170} python3 -m tiler fuzz ${FUZZ_N:-120} --seed 20000 --gpu --products --mutations 1 \
  --out "$out/fuzz" > "$out/fuzz.log" 2>&1
echo "fuzz rc=$?: $(grep -E 'programs|GPU batch' "$out/fuzz.log" | tail -4 | tr '\n' ' ')"
echo "total: $(( $(date +%s) - start )) s"
