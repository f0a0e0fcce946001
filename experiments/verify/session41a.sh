#!/bin/bash
# Forty-first session, first call: issue 58's IEEE f32 product with its tiles copied by TMA
# (experiments/sgemm_tma.py), then the corpus products whose kernels changed in the fortieth session against
# their twins at large sizes (torch.compile compiled for each shape). Logs in one archive.
#   OUT=DIR bash experiments/verify/session41a.sh
set -u
out=$(realpath -m "${OUT:-session41a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 240 python3 experiments/sgemm_tma.py 4096 8192 > "$log/sgemm_tma.txt" 2>&1
echo "== sgemm rc=$? $(( $(date +%s) - start )) s"; cat "$log/sgemm_tma.txt"
OUT=$log/peer PROGRAMS="a_matmul_loop_f32 a_matmul_stream_f32 a_matmul_tprelude_f32 a_batched_matmul_f32 a_attn_scores_h64_f32 a_pdist_euclid_f32 a_pdist_manhattan_int a_matmul_int_rowstream a_bilinear_batch_f32" \
  SETS=large LIMIT_S=$(( 540 - ($(date +%s) - start) )) TAG=changed bash experiments/verify/peer-corpus.sh | tail -20
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
