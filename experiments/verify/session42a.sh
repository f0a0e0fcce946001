#!/bin/bash
# Forty-second session, first check of the last chunk decided by the body's algebra (analyse/zero_tail.py): the
# CUDA-core TMA products' GPU tests (36 cases, sq_dist_by_position's whole last chunk among them), compute-sanitizer
# on sq_dist_by_position's transposed TMA versions, and the corpus programs whose last chunk runs whole again
# (a_pdist_euclid_f32, a_cosine_sim_f32) against the session's start (.trees/head: 3958370 .. bdae205 alike for them
# but the mbarriers' invalidation; .trees/now the working tree). From the repository's root after
# `source .gpu/bootstrap`:   OUT=DIR bash experiments/verify/session42a.sh
set -u
out=$(realpath -m "${OUT:-session42a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "core_products_copied_by_tma" \
  > "$log/pytest-core-tma.txt" 2>&1
echo "== pytest rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/pytest-core-tma.txt"
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 9 python3 -m tiler bench \
    tests/programs/analysis/sq_dist_by_position.fut -s n=2052 -s m=2056 -s d=70 --repeat 1 >> "$log/sanitizer.log" 2>&1
  echo "$tool rc=$?"
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|max err|│ tiled" "$log/sanitizer.log"
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
P="a_pdist_euclid_f32 a_cosine_sim_f32"
for tree in head now now head; do
  (cd .trees/$tree && timeout 80 python3 "$timer" "$corpus" large "$log/corpus-$tree-$(date +%s%N).json" \
     $P) > "$log/corpus-$tree-$(date +%s%N).txt" 2>&1
  echo "== corpus $tree rc=$? $(( $(date +%s) - start )) s"; grep -E "large default" "$log"/corpus-$tree-*.txt | tail -2
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
