#!/bin/bash
# Thirty-fourth session, first call: splits for few points timed past their threshold (few_points.py); what the
# last session left unrun on a GPU: the short-rows scan version (e_row_count_min_int at 100,000 x 128 and x 512
# against untiled and its twin) and the scans' GPU tests.
set -u
out=$(realpath -m "${OUT:-session34a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 330 python3 experiments/verify/few_points.py "$out/few_points.json" \
  a_vecmat_stream_f32:m=60000,n=4000 a_vecmat_stream_f32:m=16384,n=16384 a_vecmat_stream_f32:m=120000,n=2000 \
  a_matvec_rows_f32:m=10000,n=40000 a_matvec_rows_f32:m=1000,n=200000 \
  a_matvec_transpose_f32 a_matvec_colindex_f64 c_residual_sub_f32 a_ell_spmv_f32 b_csr_dot_i64 \
  a_embedding_bag_f32 a_matmul_loop_f32 2>&1 | grep -v "^ *warn" | tee "$log/few_points.txt" | cut -c1-400
echo "== after few_points $(( $(date +%s) - start )) s"
timeout 100 python3 -m tiler corpus corpus --only e_row_count_min_int --sizes short,tall --peer \
  --peer-warmers 2 --json "$out/corpus-short.json" > "$log/corpus-short.txt" 2>&1
echo "== corpus rc=$?"; grep -E "peer/tiler|against the better|slower|wrong|FAIL|e_row" "$log/corpus-short.txt" | cut -c1-250
echo "== after corpus $(( $(date +%s) - start )) s"
OUT=$log/tests KEYS="scan" SHARDS=8 GPU_TESTS_S=150 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
echo "== total $(( $(date +%s) - start )) s"
