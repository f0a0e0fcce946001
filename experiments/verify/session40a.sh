#!/bin/bash
# Fortieth session, first call: the bit-for-bit GPU test of f64 products on the units (not run since its last
# edit), issue 58's IEEE f32 probe (experiments/sgemm_prefetch.py: register fragments loaded a step ahead),
# and the GPU fuzz at seeds 200-299. From the repository's root after `source .gpu/bootstrap`:
#   OUT=DIR bash experiments/verify/session40a.sh
set -u
out=$(realpath -m "${OUT:-session40a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 240 python3 experiments/sgemm_prefetch.py 4096 8192 > "$log/sgemm.txt" 2>&1
echo "== sgemm rc=$? $(( $(date +%s) - start )) s"; cat "$log/sgemm.txt"
timeout 150 python3 -m pytest -q -m gpu -n 4 tests/test_gpu.py -k untiled_kernels_bits > "$log/bits.txt" 2>&1
echo "== bits rc=$? $(( $(date +%s) - start )) s"; tail -5 "$log/bits.txt"
timeout 120 python3 -m tiler fuzz 100 --seed 200 --gpu --mutations 0 > "$log/fuzz.txt" 2>&1
echo "== fuzz rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/fuzz.txt"
echo "== total $(( $(date +%s) - start )) s"
