#!/bin/bash
# Thirty-seventh session, third call: the GPU fuzz over the seeds whose programs now get a strided version (the
# replay's fuzz programs are seeds 0 on), the three programs changed since their large sizes were timed against
# their twins per shape (a_outer_update_f32, a_rigid3_points_f32, a_ell_spmv_f32), and the online log-sum-exp's
# one-exponential step (.trees/lse) beside the session's start (.trees/head) on the two programs it changes, each
# tree's run led by a program timed only to warm the GPU. From the repository's root on a GPU host after
# `source .gpu/bootstrap`, with .trees carried: OUT=DIR bash experiments/verify/session37c.sh
set -u
out=$(realpath -m "${OUT:-session37c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
limit=${LIMIT_S:-520}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 150 python3 -m tiler fuzz 90 --seed 0 --gpu --mutations 0 > "$log/fuzz.txt" 2>&1
echo "== fuzz rc=$? $(( $(date +%s) - start )) s"; tail -4 "$log/fuzz.txt"
OUT=$out/peer PROGRAMS="a_ell_spmv_f32 a_outer_update_f32 a_rigid3_points_f32" SETS=large TAG=changed-large LIMIT_S=150 \
  bash experiments/verify/peer-corpus.sh > "$log/peer.txt" 2>&1
echo "== peer $(( $(date +%s) - start )) s"; grep -E "^a_|median" "$out/peer/peer-changed-large.log" | cut -c1-200
corpus=$(realpath corpus)
for tree in head lse; do
  left=$(( limit - ($(date +%s) - start) ))
  [ $left -lt 40 ] && break
  (cd .trees/$tree && timeout $(( left - 10 )) python3 -m tiler corpus "$corpus" --only a_row_stats_f32 \
     --only c_logsoftmax_online_f32 --only c_lse_online_loop_f64 --sizes medium,large --json "$log/$tree-$left.json") \
     > "$log/$tree-$left.txt" 2>&1
  echo "== $tree rc=$? $(( $(date +%s) - start )) s"; grep -E "^c_l" "$log/$tree-$left.txt" | cut -c1-150
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
