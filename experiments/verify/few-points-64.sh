#!/bin/bash
# The few-points split's threshold at 64 points an SM (this tree) against 32
# (.baseline/, `tools/corpus-baseline` of the commit before), on the corpus
# programs whose points lie between 32 and 64 an SM (132 SMs) at a size,
# timed at that size in both trees in one call. Logs to $OUT.
set -u
out=${OUT:-few64}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
group() {  # SIZE PROGRAMS...
  local size=$1; shift
  rm -rf g && mkdir g
  for p in "$@"; do cp corpus/$p.* g/; done
  (cd .baseline && timeout 100 python3 -m tiler.bench.corpus ../g $size "$out/base-$size.json" > "$out/base-$size.log" 2>&1)
  timeout 120 python3 -m tiler corpus g --sizes $size --json "$out/now-$size.json" --against "$out/base-$size.json" \
    > "$out/now-$size.log" 2>&1
  grep -E "x[0-9]|earlier time|slower" "$out/now-$size.log"
  rm -rf g
}
group small b_gp_rbf_f32 b_hash_i64_collide b_lj_neighbor_list b_mri_q b_nbody1d_f64 b_nbody2d_helper_f32 b_nbody3d_accel_f32 b_window_stats_f64
group medium b_gp_matern_f64 b_nested_quadrature c_residual_sub_f32
group large c_residual_sub_f32 c_rowdot_normweights_f64
for s in small medium large; do echo "== $s base"; grep -E "^[abc]_" "$out/base-$s.log"; done
if [ -n "${GPU_K:-}" ]; then
  timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py -k "$GPU_K" > "$out/gpu-tests.log" 2>&1
  tail -3 "$out/gpu-tests.log"; grep -E "^(FAILED|E )" "$out/gpu-tests.log" | head -20
fi
