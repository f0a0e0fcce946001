#!/bin/bash
# Thirtieth session, fifth call (issue 58): 128 x 256 tiles on one m64n256 instruction a warp group against two
# m64n128 (the same plan with WGMMA_N without 256), same call; then the GPU tests of the wide tiles (TMA and
# cp.async), compute-sanitizer on the new instruction with B MN-major (bf16) and K-major (TF32). Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session30e}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
S=experiments/verify/sweep.py
J=experiments/verify/jobs/session30e.txt
timeout 200 python3 $S $J 2>&1 | tee "$log/n256.log" | grep -E "^==| ms|failed"
echo "== $(( $(date +%s) - start )) s"
timeout 200 python3 $S $J --set "tiler.target.WGMMA_N=(128,64)" 2>&1 | tee "$log/n128.log" | grep -E "^==| ms|failed"
echo "== $(( $(date +%s) - start )) s"
OUT=$log/tests KEYS="copied_by_tma or wide_tiles or tensor_cores_on_the_gpus_own" SHARDS=8 GPU_TESTS_S=300 \
  bash experiments/verify/whole-gpu.sh > /dev/null 2>&1 &
tests=$!
D=experiments/verify/tma_debug.py
for p in benchmarks/mm_bf16.fut tests/programs/tensor_cores/mm_abt_f32.fut; do
  timeout 100 python3 $D $p 8192 264 2>&1 | grep "nan " | tee -a "$log/debug.log"
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 $D $p 8192 264 > "$log/sanitize-$tool.log" 2>&1
    echo "$p $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1)"
  done
done
wait $tests
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session30e-logs.tgz" -C "$out" logs
