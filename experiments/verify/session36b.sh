#!/bin/bash
# Thirty-sixth session, second call: the GPU checks of the row alias's final form (kernel/rows.py): the
# staged-rows, k-means and bounded-length GPU tests, the sanitizers on a_kmeans_assign_f32, the GPU fuzz; a
# warp a row for short rows (few_points.py with rows of any length split, a warp a row, and as the launch picks);
# then, with the call's time left, more of the corpus at large sizes against its twins (per shape).
set -u
out=$(realpath -m "${OUT:-session36b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
short="a_ell_spmv_f32 a_row_stats_f32 b_lj_neighbor_list c_residual_sub_f32 c_row_welford_f64 c_row_argmax_f32 a_bilinear_batch_f32"
SHORT_ROWS=1 LANES=32 timeout 200 python3 experiments/verify/few_points.py "$out/short-warp.json" $short \
  > "$log/short-warp.txt" 2>&1
echo "== short rows, a warp a row rc=$? $(( $(date +%s) - start )) s"; cut -c1-400 "$log/short-warp.txt" | grep -v "^ "
OUT=$log/tests KEYS="rows_staged_to_coalesce or kmeans or bounded_length or own_row" SHARDS=8 GPU_TESTS_S=100 \
  SANITIZE="a_kmeans_assign_f32" bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -10
grep -E "ERROR SUMMARY|error" "$log/tests/sanitizer.log" | sort | uniq -c | head
echo "== tests $(( $(date +%s) - start )) s"
timeout 90 python3 -m tiler fuzz 40 --seed 36000 --gpu > "$log/fuzz.txt" 2>&1
echo "== fuzz rc=$? $(( $(date +%s) - start )) s"; tail -4 "$log/fuzz.txt"
left=$(( ${LIMIT_S:-565} - ($(date +%s) - start) ))
if [ $left -gt 60 ]; then
  OUT=$out/peer SET=large LIMIT_S=$left bash experiments/verify/peer-rest.sh > "$log/peer-rest.txt" 2>&1
  tail -30 "$log/peer-rest.txt"
fi
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
