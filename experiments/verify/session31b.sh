#!/bin/bash
# Thirty-first session, second call: launches issued with their arguments packed once (runtime/launches.py):
# host issue and events on the small corpus pairs, this tree against the start (.head/); TF32 Aᵀ B and Xᵀ X with
# both operands transposed by the launch, both trees; then the GPU tests the launch path and the copies touch,
# and compute-sanitizer on Aᵀ B and Xᵀ X.
set -u
out=$(realpath -m "${OUT:-session31b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
cp tests/programs/tensor_cores/mm_ata_f32.fut .head/tests/programs/tensor_cores/
progs="corpus/a_matmul_loop_f32.fut:small corpus/a_covariance_f64.fut:small corpus/a_matmul_tprelude_f32.fut:small
  corpus/a_matmul_stream_f32.fut:small corpus/a_covariance_f64.fut:medium corpus/a_matmul_bt_kahan_f64.fut:medium
  corpus/a_matmul_int_rowstream.fut:small corpus/c_col_welford_f32.fut:small corpus/b_gp_rbf_f32.fut:small"
for tree in now head; do
  dir=.; [ $tree = head ] && dir=.head
  (cd $dir && timeout 150 python3 $OLDPWD/experiments/verify/overhead.py $progs > "$log/overhead-$tree.log" 2>&1)
  echo "overhead $tree rc=$? $(( $(date +%s) - start )) s"; grep -v -i warn "$log/overhead-$tree.log" | grep -v "^ *$"
done
for tree in now head; do
  dir=.; [ $tree = head ] && dir=.head
  (cd $dir && timeout 150 python3 $OLDPWD/experiments/verify/sweep.py $OLDPWD/experiments/verify/jobs/session31b.txt \
    > "$log/sweep-$tree.log" 2>&1)
  echo "sweep $tree rc=$? $(( $(date +%s) - start )) s"; cat "$log/sweep-$tree.log"
done
OUT=$log/tests KEYS="copied_by_tma or split or transpos or interop or torch or cupy or bf16 or half or race or launcher" \
  SHARDS=8 GPU_TESTS_S=200 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "copied_by_tma and (mm_atb_f32-264-2048 or mm_ata_f32-37-2048)" > "$log/sanitizer-$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" "$log/sanitizer-$tool.log" | tail -4
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session31b-logs.tgz" -C "$out" logs
