#!/bin/bash
# Thirty-sixth session, third call: a warp a row for splits for few points that stream each point's own rows
# (reductions.Split.own_warp), raced ahead of the tiled kernel: the changed corpus programs at the session's
# start (.head) and now, the split GPU tests, the sanitizers on a_ell_spmv_f32; the benchmarks matvec and mlp
# (also changed) in both trees; then several points a thread, a block's width apart, for plans with nothing
# staged (coarse_points.py).
set -u
out=$(realpath -m "${OUT:-session36c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
corpus=$(realpath corpus)
progs="a_ell_spmv_f32 b_lj_neighbor_list c_residual_sub_f32 a_matvec_rows_f32 a_matvec_colindex_f64 c_rowdot_normweights_f64 a_vecmat_stream_f32 a_matvec_transpose_f32 b_gp_matern_f64"
only=""; for p in $progs; do only="$only --only $p"; done
(cd .head && timeout 130 python3 -m tiler corpus "$corpus" $only --sizes small,medium,large \
   --json "$out/head.json") > "$log/head.txt" 2>&1
echo "== head rc=$? $(( $(date +%s) - start )) s"
timeout 130 python3 -m tiler corpus corpus $only --sizes small,medium,large --json "$out/now.json" > "$log/now.txt" 2>&1
echo "== now rc=$? $(( $(date +%s) - start )) s"
python3 experiments/verify/compare_corpus.py "$out/head.json" "$out/now.json" | cut -c1-200
grep -E "x[0-9.]+  untiled" "$log/now.txt" | cut -c1-160
OUT=$log/tests KEYS="few_points_split or own_row or staged_rows or split_k" SHARDS=8 GPU_TESTS_S=75 \
  SANITIZE="a_ell_spmv_f32" bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -10
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rc=" "$log/tests/sanitizer.log" | head
echo "== tests $(( $(date +%s) - start )) s"
for tree in .head .; do
  (cd $tree && timeout 45 python3 -m tiler bench matvec mlp --repeat 10 --json "$out/bench-$(basename $(realpath $tree)).json") \
    > "$log/bench-$(basename $(realpath $tree)).txt" 2>&1
  echo "== bench $tree rc=$? $(( $(date +%s) - start )) s"; grep -E "^\s*(matvec|mlp)" "$log/bench-$(basename $(realpath $tree)).txt" | cut -c1-160
done
left=$(( ${LIMIT_S:-570} - ($(date +%s) - start) ))
[ $left -gt 20 ] && POINTS="4 8" timeout $left python3 experiments/verify/coarse_points.py "$out/coarse.json" \
  a_outer_update_f32 a_rigid3_points_f32 b_kde2d_grid_f64 b_csr_dot_i64 > "$log/coarse.txt" 2>&1
grep -v "^ " "$log/coarse.txt" | cut -c1-220 | tail -14
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
