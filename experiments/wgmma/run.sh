#!/bin/bash
# The wgmma harness on the GPU, then tiler's mm_bf16 and cuBLAS in the same call. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-wgmma-out}")
mkdir -p "$out"
here=$(dirname "$0")
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
nvcc -gencode arch=compute_90a,code=sm_90a -O3 -o "$out/wgmma" "$here/wgmma_bf16.cu" 2>&1 | tail -3
"$out/wgmma" 256 256 256 | tee "$out/wgmma-small.txt"
"$out/wgmma" | tee "$out/wgmma.txt"
"$out/wgmma" 8192 8192 8192 | tee "$out/wgmma-8192.txt"
timeout 200 python3 -m tiler bench mm_bf16 --repeat 10 > "$out/bench-mm_bf16.log" 2>&1
grep -E "^│ [a-zA-Z]" "$out/bench-mm_bf16.log"
rm -f "$out/wgmma"
