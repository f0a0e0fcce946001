#!/bin/bash
# Fortieth session, third call: a scalar cooperative copy's steps placed from the first step's (its line plus
# a constant: lower/copies.py _stepped), first form (any element size; also where a known length's loop runs
# once): the register-tiled products compiled without sizes fit two blocks an SM (mm: 137 -> 127 registers).
# Times the corpus programs whose CUDA changed, in the start's tree (.trees/head) and this one (.trees/now):
# the 2-D register tiles A B B A at small, medium and large, the other four alike; mm at 4096^3 through
# variants.py with and without the sizes known; GPU tests of copies and products; sanitizers on two products.
# Only 8 files came back (no archive): session40d and session40e re-timed what was lost.
#   OUT=DIR bash experiments/verify/session40c.sh
set -u
out=$(realpath -m "${OUT:-session40c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
TWO="a_attn_scores_h64_f32 a_batched_matmul_f32 a_covariance_f64 a_gram_rows32_f32 a_matmul_int_rowstream a_matmul_loop_f32 a_matmul_stream_f32 a_matmul_tprelude_f32 a_pdist_euclid_f32 a_pdist_manhattan_int c_xty_loop_f32 c_xty_tstream_f64 g_embed_scores_f32 g_hashed_proj_f64"
REST="a_attn_online_softmax_f32 a_bilinear_batch_f32 a_kmeans_assign_f32 b_gp_matern_f64"
for tree in head now now head; do
  (cd .trees/$tree && timeout 110 python3 "$timer" "$corpus" small,medium,large "$log/two-$tree-$(date +%s).json"      $TWO) > "$log/two-$tree-$(date +%s).txt" 2>&1
  echo "== two $tree rc=$? $(( $(date +%s) - start )) s"
done
for tree in now head head now; do
  (cd .trees/$tree && timeout 60 python3 "$timer" "$corpus" small,medium,large "$log/rest-$tree-$(date +%s).json" $REST)     > "$log/rest-$tree-$(date +%s).txt" 2>&1
  echo "== rest $tree rc=$? $(( $(date +%s) - start )) s"
done
for tree in head now; do  # mm at 4096^3 compiled knowing the sizes (as tiler bench does) and not, and SGEMM
  (cd .trees/$tree && timeout 60 python3 ../../experiments/verify/variants.py benchmarks/mm.fut m=4096,n=4096,q=4096 \
     known: unknown:hint=0 --torch f32 --operands A,B0) > "$log/mm-known-$tree.txt" 2>&1
  echo "== mm known $tree rc=$? $(( $(date +%s) - start )) s"; grep -E " ms" "$log/mm-known-$tree.txt"
done
OUT=$log/tests SHARDS=8 GPU_TESTS_S=100 KEYS="mm or copy or matmul or product or register" \
  bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log" 2>/dev/null; grep -E "^E  " /tmp/shards/*.log 2>/dev/null | head -10
echo "== tests $(( $(date +%s) - start )) s"
for tool in memcheck racecheck; do
  timeout 50 compute-sanitizer --tool "$tool" --error-exitcode 9 python3 -m tiler corpus corpus \
    --only a_matmul_loop_f32 --only a_cosine_sim_f32 --sizes test >> "$log/sanitizer.log" 2>&1
  echo "products $tool rc=$?"
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log/sanitizer.log"
echo "== total $(( $(date +%s) - start )) s"
