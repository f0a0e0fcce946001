#!/bin/bash
# Thirty-ninth session, third call: after the split-K version kept the plan without the units (Plan.k_schedule):
# the GPU tests of the units, f64 programs and split-K (the new bit-for-bit test among them), memcheck and
# racecheck on the f64 products now on the units by default, the GPU fuzz at seeds 200-299, then X^T Y in f64
# (its split-K version the one the second call found 7% slower) in the start's tree and this one, A B B A.
# From the repository's root on a GPU host after `source .gpu/bootstrap`, with .trees carried:
#   OUT=DIR bash experiments/verify/session39c.sh
set -u
out=$(realpath -m "${OUT:-session39c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests SHARDS=8 GPU_TESTS_S=150 KEYS="tensor or f64 or units or split_k" bash experiments/verify/whole-gpu.sh \
  > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " /tmp/shards/*.log 2>/dev/null | head -10
echo "== tests $(( $(date +%s) - start )) s"
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 python3 -m tiler corpus corpus \
    --only g_hashed_proj_f64 --only c_xty_tstream_f64 --sizes test >> "$log/sanitizer.log" 2>&1
  echo "corpus f64 products $tool rc=$?"
  timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 python3 -m tiler bench mm_f64 -s m=300 -s n=301 \
    -s q=261 --repeat 1 >> "$log/sanitizer.log" 2>&1
  echo "mm_f64 $tool rc=$?"
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log/sanitizer.log"
echo "== sanitizers $(( $(date +%s) - start )) s"
timeout 80 python3 -m tiler fuzz 100 --seed 200 --gpu --mutations 0 > "$log/fuzz.txt" 2>&1
echo "== fuzz rc=$? $(( $(date +%s) - start )) s"; tail -2 "$log/fuzz.txt"
for tree in head now now head; do
  (cd .trees/$tree && timeout 60 python3 "$timer" "$corpus" large "$log/xty-$tree-$(date +%s).json" \
     c_xty_tstream_f64) > "$log/xty-$tree.txt" 2>&1
  echo "== xty $tree rc=$? $(( $(date +%s) - start )) s"; grep "^c_xty" "$log/xty-$tree.txt" | tail -1
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
