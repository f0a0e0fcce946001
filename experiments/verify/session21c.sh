#!/bin/bash
# Twenty-first session, last call: the final tree (TF32's B tile in registers, the verifier's bounds on shared
# stores) on the GPU: `pytest -m gpu` on the products, `tiler fuzz --gpu --products` and `tiler fuzz --gpu` on
# general programs (the kernels the runtime compiles pass the new verifier). Run from the tree's root. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session21c}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
   -k "tensor_cores or f16 or bf16 or f64" > "$log/gpu-tests.log" 2>&1) &
timeout 80 python3 -m tiler fuzz 80 --seed 27000 --gpu --products --mutations 0 --out "$log/fuzz-products" \
  > "$log/fuzz-products.log" 2>&1
echo "products rc=$?: $(grep -E 'programs|GPU check' "$log/fuzz-products.log" | tail -2 | tr '\n' ' ')"
timeout 100 python3 -m tiler fuzz 150 --seed 28000 --gpu --mutations 0 --out "$log/fuzz" > "$log/fuzz.log" 2>&1
echo "general rc=$?: $(grep -E 'programs|GPU check' "$log/fuzz.log" | tail -2 | tr '\n' ' ')"
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
echo "== $(( $(date +%s) - start )) s"
tar -czf "$out/session21c-logs.tgz" -C "$out" logs && rm -rf "$log"
