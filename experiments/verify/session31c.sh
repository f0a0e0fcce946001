#!/bin/bash
# Thirty-first session, third call: WIDE_STEPS again on one m64n256 instruction a group (sweep, this tree); the
# corpus programs whose small launches were nearest the peers (tiler's default now with --peer, and at the start,
# .head/, same call).
set -u
out=$(realpath -m "${OUT:-session31c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 150 python3 experiments/verify/sweep.py experiments/verify/jobs/session31c.txt > "$log/sweep.log" 2>&1
echo "sweep rc=$? $(( $(date +%s) - start )) s"; cat "$log/sweep.log"
only=""
for p in a_matmul_bt_kahan_f64 a_covariance_f64 a_matmul_loop_f32 a_matmul_stream_f32 c_xty_tstream_f64 \
  c_logsoftmax_online_f32 a_matmul_tprelude_f32 a_bilinear_batch_f32 a_vecmat_stream_f32 c_rowdot_normweights_f64 \
  c_residual_sub_f32 a_matmul_int_rowstream; do only="$only --only $p"; done
(cd .head && timeout 150 python3 -m tiler corpus corpus $only --sizes small,medium --json "$log/corpus-head.json" \
  > "$log/corpus-head.log" 2>&1; echo "corpus head rc=$? $(( $(date +%s) - start )) s")
timeout 260 python3 -m tiler corpus corpus $only --sizes small,medium --peer --json "$log/corpus-now.json" \
  --against "$log/corpus-head.json" > "$log/corpus-now.log" 2>&1
echo "corpus now rc=$? $(( $(date +%s) - start )) s"; grep -v -i "warn" "$log/corpus-now.log" | tail -45
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session31c-logs.tgz" -C "$out" logs
