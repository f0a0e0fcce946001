#!/bin/bash
# Forty-first session, third call: where the TMA product's time goes. mm at 4096^3 and 8192^3 in `.trees/prev`
# (the launch's transposition as it was: a thread's loads one at a time) and `.trees/now` (its loads issued
# together), each with chunks of 16 (the plan's) and 32; the product given A transposed (experiments/sgemm/mm_at.fut:
# no launch transposition) in `.trees/now`; cuBLAS SGEMM. Logs in one archive.
#   OUT=DIR bash experiments/verify/session41c.sh
set -u
out=$(realpath -m "${OUT:-session41c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
variants=$(realpath experiments/verify/variants.py); mm=$(realpath benchmarks/mm.fut); mmat=$(realpath experiments/sgemm/mm_at.fut)
for s in 4096 8192; do
  for tree in prev now; do
    (cd .trees/$tree && timeout 100 python3 "$variants" "$mm" m=$s,n=$s,q=$s tma: tma32:chunk=32 notma:no_tma=1 \
       --torch f32 --operands A,B0 --repeat 10) > "$log/mm-$tree-$s.txt" 2>&1
    echo "== mm $tree $s rc=$? $(( $(date +%s) - start )) s"; grep -E "ms|torch|cuBLAS" "$log/mm-$tree-$s.txt" | tail -5
  done
  (cd .trees/now && timeout 100 python3 "$variants" "$mmat" m=$s,n=$s,q=$s tma: tma32:chunk=32 --repeat 10) \
    > "$log/mmat-$s.txt" 2>&1
  echo "== mm_at $s rc=$? $(( $(date +%s) - start )) s"; grep -E "ms" "$log/mmat-$s.txt" | tail -3
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
