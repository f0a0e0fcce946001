#!/bin/bash
# Fortieth session, fourth call: the programs session40c left in doubt (its second pass of this tree was lost:
# only 8 files come back), A B B A twice, small, medium and large; logs in one archive.
#   OUT=DIR bash experiments/verify/session40d.sh
set -u
out=$(realpath -m "${OUT:-session40d}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
P="c_xty_loop_f32 c_xty_tstream_f64 a_gram_rows32_f32 a_covariance_f64 a_attn_online_softmax_f32 a_bilinear_batch_f32 a_kmeans_assign_f32 b_gp_matern_f64"
for tree in head now now head head now now head; do
  (cd .trees/$tree && timeout 60 python3 "$timer" "$corpus" small,medium,large "$log/$tree-$(date +%s%N).json" $P) \
    > "$log/$tree-$(date +%s%N).txt" 2>&1
  echo "== $tree rc=$? $(( $(date +%s) - start )) s"
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
