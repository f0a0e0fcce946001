#!/bin/bash
# Forty-first session, second call: the CUDA cores' f32 products with tiles copied by TMA (analyse/core_tma.py)
# against the interpreter (GPU tests), then mm at 1024-8192 cubed: TMA (sizes known), --no-tma (the start's
# kernel), sizes unknown (a grid loop), and cuBLAS SGEMM, in the working tree's copy `.trees/now`. Logs in one
# archive.   OUT=DIR bash experiments/verify/session41b.sh
set -u
out=$(realpath -m "${OUT:-session41b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "core_products_copied_by_tma" \
  > "$log/pytest-core-tma.txt" 2>&1
echo "== pytest rc=$? $(( $(date +%s) - start )) s"; tail -4 "$log/pytest-core-tma.txt"
variants=$(realpath experiments/verify/variants.py); mm=$(realpath benchmarks/mm.fut)
for s in 4096 2048 1024 8192; do
  (cd .trees/now && timeout 120 python3 "$variants" "$mm" m=$s,n=$s,q=$s tma: notma:no_tma=1 unknown:hint=0 \
     --torch f32 --repeat 10) > "$log/mm-$s.txt" 2>&1
  echo "== mm $s rc=$? $(( $(date +%s) - start )) s"; grep -v "^ *$" "$log/mm-$s.txt" | tail -6
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
