#!/bin/bash
# Thirtieth session, sixth call (issue 58): the final tree (128 x 256 tiles on one m64n256 instruction a group, the
# rules relaxed, the gates asking what lowering asks for TMA, the launcher's own names): `tiler bench mm mm_bf16
# aat mm_rows --tensor-cores` now and at the start (.head/) at the full sizes, now at 8192; then the GPU tests of
# the products, the host launcher's, and the C harness. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session30f}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
for run in full-now full-head 8192-now; do
  dir=.; [ $run = full-head ] && dir=.head
  if [ ${run%%-*} = full ]; then progs="mm mm_bf16 aat mm_rows"; sizes=""; else progs="mm mm_bf16"; sizes="-s m=8192 -s n=8192 -s q=8192"; fi
  (cd $dir && timeout 170 python3 -m tiler bench $progs $sizes --tensor-cores --repeat 10 \
    --json "$log/bench-$run.json" > "$log/bench-$run.log" 2>&1; echo "bench $run rc=$? $(( $(date +%s) - start )) s")
done
OUT=$log/tests KEYS="copied_by_tma or wide_tiles or tensor_cores_on_the_gpus_own or host_launcher" SHARDS=8 \
  GPU_TESTS_S=200 bash experiments/verify/whole-gpu.sh > /dev/null 2>&1 &
tests=$!
python3 -m tiler compile benchmarks/mm.fut --tensor-cores --arch sm_90a -s m=8192 -s n=8192 -s q=8192 \
  --no-launch-timing -o experiments/verify/tma_harness/kernel.cu > "$log/harness-build.log" 2>&1
(cd experiments/verify/tma_harness && nvcc -gencode arch=compute_90a,code=sm_90a -O3 -DAB -o "$log/harness" harness.cu) \
  >> "$log/harness-build.log" 2>&1
for n in 264 1000; do timeout 60 "$log/harness" $n 2>&1 | tee -a "$log/harness.log"; done
rm -f "$log/harness" experiments/verify/tma_harness/kernel.cu
wait $tests
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session30f-logs.tgz" -C "$out" logs
