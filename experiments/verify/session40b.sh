#!/bin/bash
# Fortieth session, second call: the GPU fuzz at seeds 200-299 (cut at 120 s in the first call), and a survey of
# the f32 product where its 128 x 128 tiles fill the GPU's block slots unevenly (a last, partial wave):
# mm at sizes of 1.5 to 4.4 waves, the default against 64 x 128 and 128 x 64 tiles (register tiles 4 x 8 and
# 8 x 4) and cuBLAS SGEMM. From the repository's root after `source .gpu/bootstrap`:
#   OUT=DIR bash experiments/verify/session40b.sh
set -u
out=$(realpath -m "${OUT:-session40b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
V=$(realpath experiments/verify/variants.py)
for s in m=2500,n=1500,q=2500 m=3000,n=3000,q=3000 m=1920,n=4096,q=1920 m=2176,n=2048,q=2176 m=4096,n=4096,q=4096; do
  timeout 120 python3 "$V" benchmarks/mm.fut "$s" now: r4x8:register_tile=4x8 r8x4:register_tile=8x4 \
    --torch f32 --operands A,B0 > "$log/wave-$s.txt" 2>&1
  echo "== wave $s rc=$? $(( $(date +%s) - start )) s"; grep -E " ms|rror" "$log/wave-$s.txt" | head -8
done
timeout 300 python3 -m tiler fuzz 100 --seed 200 --gpu --mutations 0 > "$log/fuzz.txt" 2>&1
echo "== fuzz rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/fuzz.txt"
echo "== total $(( $(date +%s) - start )) s"
