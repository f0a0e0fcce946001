#!/bin/bash
# Forty-first session, fourth call: the TMA product a chunk a loop step (each input's buffers one ring): GPU tests
# of the CUDA cores' TMA products, then mm at 4096^3 and 8192^3 in `.trees/now` (TMA with chunks of 16 and 32, sizes
# unknown, --no-tma: the start's kernel), the product given A transposed (mm_at.fut), cuBLAS SGEMM.
#   OUT=DIR bash experiments/verify/session41d.sh
set -u
out=$(realpath -m "${OUT:-session41d}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "core_products_copied_by_tma" \
  > "$log/pytest-core-tma.txt" 2>&1
echo "== pytest rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/pytest-core-tma.txt"
variants=$(realpath experiments/verify/variants.py); mm=$(realpath benchmarks/mm.fut); mmat=$(realpath experiments/sgemm/mm_at.fut)
for s in 4096 8192; do
  (cd .trees/now && timeout 110 python3 "$variants" "$mm" m=$s,n=$s,q=$s tma: tma32:chunk=32 unknown:hint=0 \
     notma:no_tma=1 --torch f32 --operands A,B0 --repeat 10) > "$log/mm-$s.txt" 2>&1
  echo "== mm $s rc=$? $(( $(date +%s) - start )) s"; grep -E " ms" "$log/mm-$s.txt" | tail -5
  (cd .trees/now && timeout 60 python3 "$variants" "$mmat" m=$s,n=$s,q=$s tma: --repeat 10) > "$log/mmat-$s.txt" 2>&1
  echo "== mm_at $s rc=$? $(( $(date +%s) - start )) s"; grep -E " ms" "$log/mmat-$s.txt" | tail -2
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
