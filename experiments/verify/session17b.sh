#!/bin/bash
# Seventeenth session, second call: timings, one thing at a time. (1) The
# programs the sixteenth session's reductions by a value's own `if` changed,
# against .baseline/ (the session's start, aa90917), with their twins; (2)
# branch bmm's four changed programs against this checkout, with twins; (3)
# branch tc's products under --tensor-cores against cuBLAS allowed the same
# units; (4) the sanitizers on tc's bf16 product; (5) with the time left
# before LIMIT_S, the five corpus programs never timed against their twins.
# On a GPU host after `source .gpu/bootstrap`, with .bmm/, .tc/ and
# .baseline/ carried. Logs to $OUT, packed into one file.
set -u
out=$(realpath -m "${OUT:-session17b}")
mkdir -p "$out/logs"
log=$out/logs
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
pick() { rm -rf "$1" && mkdir "$1" && for p in ${@:2}; do cp corpus/$p.* "$1"/; done; }
pick ifr b_minhash_int b_radius_count3d b_prefix_masked_i64
(cd .baseline && timeout ${BASE_S:-60} python3 -m tiler.bench.corpus ../ifr small,medium,large "$log/ifr-base.json") \
  > "$log/ifr-base.log" 2>&1
timeout ${NOW_S:-110} python3 -m tiler corpus ifr --sizes small,medium,large --peer --json "$log/ifr-now.json" \
  --against "$log/ifr-base.json" > "$log/ifr-now.log" 2>&1
grep -v "^  (" "$log/ifr-now.log" | tail -14
echo "== $(( $(date +%s) - start )) s"
pick bc a_attn_online_softmax_f32 a_batched_matmul_f32 a_matmul_int_rowstream a_vecmat_stream_f32
timeout ${BASE_S:-60} python3 -m tiler.bench.corpus bc small,medium,large "$log/bmm-base.json" > "$log/bmm-base.log" 2>&1
(cd .bmm && export PYTHONPATH=/tmp/site:$PWD && timeout ${NOW_S:-110} python3 -m tiler corpus ../bc \
  --sizes small,medium,large --peer --json "$log/bmm-now.json" --against "$log/bmm-base.json") > "$log/bmm-now.log" 2>&1
grep -v "^  (" "$log/bmm-now.log" | tail -18
echo "== $(( $(date +%s) - start )) s"
for b in ${TC_BENCH:-mm mm_f64 mm_bf16}; do
  (cd .tc && export PYTHONPATH=/tmp/site:$PWD && timeout ${TC_S:-60} python3 -m tiler bench "$b" --tensor-cores \
     --repeat 10 --json "$log/tc-$b.json") > "$log/tc-$b.log" 2>&1
  echo "-- $b rc=$?"; grep -E "untiled|tiled|PyTorch|cuBLAS|error" "$log/tc-$b.log" | head -8
done
echo "== $(( $(date +%s) - start )) s"
for tool in memcheck racecheck; do
  (cd .tc && export PYTHONPATH=/tmp/site:$PWD && timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 \
     python3 -m tiler bench mm_bf16 -s m=300 -s n=301 -s q=257 --tensor-cores --repeat 1) > "$log/san-mm_bf16-$tool.log" 2>&1 &
done
wait
for tool in memcheck racecheck; do echo "mm_bf16 $tool: $(grep -E "ERROR SUMMARY|error:" "$log/san-mm_bf16-$tool.log" | head -3)"; done
pick untimed d_stencil3d_7pt_f32 g_bag_max_clamp_i32 g_bag_mean_f32 g_embed_scores_f32 g_gcn_agg_f32
timeout $(( ${LIMIT_S:-540} - ($(date +%s) - start) )) python3 -m tiler corpus untimed --sizes small,medium,large --peer \
  --json "$log/untimed-peer.json" > "$log/untimed-peer.log" 2>&1
grep -v "^  (" "$log/untimed-peer.log" | tail -20
echo "== $(( $(date +%s) - start )) s"
rm -rf ifr untimed bc
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
