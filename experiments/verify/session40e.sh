#!/bin/bash
# Fortieth session, fifth call: the stepped copies narrowed (4-byte elements; plain where a known length's loop
# runs once): the programs session40c left in doubt, A B B A twice, small, medium and large.
#   OUT=DIR bash experiments/verify/session40e.sh
set -u
out=$(realpath -m "${OUT:-session40e}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
P="g_embed_scores_f32 c_xty_loop_f32 a_matmul_loop_f32"
for tree in head now now head head now now head; do
  [ $(( $(date +%s) - start )) -gt 170 ] && break
  (cd .trees/$tree && timeout 40 python3 "$timer" "$corpus" small,medium,large "$log/$tree-$(date +%s%N).json" $P) \
    > "$log/$tree-$(date +%s%N).txt" 2>&1
  echo "== $tree rc=$? $(( $(date +%s) - start )) s"
done
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
