#!/bin/bash
# Thirty-first session, first call: where a small launch's time goes (tiler's default and the PyTorch twin:
# events, host issue, kernels) on the corpus's pairs near 0.5x; TF32 Aᵀ B and Aᵀ A as planned at the start.
set -u
out=$(realpath -m "${OUT:-session31a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 200 python3 experiments/verify/overhead.py corpus/a_matmul_loop_f32.fut:small corpus/a_covariance_f64.fut:small \
  corpus/a_matmul_tprelude_f32.fut:small corpus/a_matmul_stream_f32.fut:small corpus/a_covariance_f64.fut:medium \
  corpus/a_matmul_bt_kahan_f64.fut:medium corpus/b_mc_pi_lcg.fut:small corpus/a_matmul_int_rowstream.fut:small \
  > "$log/overhead.log" 2>&1; echo "overhead rc=$? $(( $(date +%s) - start )) s"
cat "$log/overhead.log" | grep -v Warning | tail -30
timeout 200 python3 experiments/verify/sweep.py experiments/verify/jobs/session31a.txt > "$log/sweep.log" 2>&1
echo "sweep rc=$? $(( $(date +%s) - start )) s"; cat "$log/sweep.log"
echo "== total $(( $(date +%s) - start )) s"
