#!/bin/bash
# Thirty-ninth session, second call: f64 products on sm_90's FP64 matrix units by default (their instructions
# round as the loop as written does). `tiler bench mm_f64` in the session's start (.trees/head) and this tree
# (.trees/now), the changed corpus programs' default in both trees in turns A B B A (time_default.py), the GPU
# tests of the units and of f64 programs, then the changed programs against their PyTorch twins at every size.
# From the repository's root on a GPU host after `source .gpu/bootstrap`, with .trees carried:
#   OUT=DIR PROGRAMS="..." bash experiments/verify/session39b.sh
set -u
out=$(realpath -m "${OUT:-session39b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
limit=${LIMIT_S:-560}
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
for tree in head now now head; do
  (cd .trees/$tree && timeout 90 python3 -m tiler bench mm_f64 --repeat 10 --json "$log/bench-$tree-$(date +%s).json") \
    > "$log/bench-$tree.txt" 2>&1
  echo "== bench $tree rc=$? $(( $(date +%s) - start )) s"; grep -E "mm_f64|DGEMM|default|tiled" "$log/bench-$tree.txt" | tail -6
done
for tree in head now now head; do
  (cd .trees/$tree && timeout 120 python3 "$timer" "$corpus" small,medium,large "$log/corpus-$tree-$(date +%s).json" \
     $PROGRAMS) > "$log/corpus-$tree.txt" 2>&1
  echo "== corpus $tree rc=$? $(( $(date +%s) - start )) s"; grep -vE "^  \(|compiled in" "$log/corpus-$tree.txt" | tail -12
done
OUT=$log/tests SHARDS=8 GPU_TESTS_S=150 KEYS="tensor or f64 or units" bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " /tmp/shards/*.log 2>/dev/null | head -10
echo "== tests $(( $(date +%s) - start )) s"
left=$(( limit - ($(date +%s) - start) - 15 ))
OUT=$log/peer PROGRAMS="$PROGRAMS" SETS=small,medium,large TAG=f64units LIMIT_S=$left \
  bash experiments/verify/peer-corpus.sh > "$log/peer.txt" 2>&1
grep -E "^[a-z_0-9]+ +(small|medium|large)|median" "$log/peer/peer-f64units.log" | cut -c1-240
cp "$log/peer/peer-f64units.json" "$out/" 2>/dev/null
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
