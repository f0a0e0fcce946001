#!/bin/bash
# Thirtieth session, third call (issue 58): `tiler bench mm mm_bf16 aat --tensor-cores` in this tree (TF32 A B
# reading B's transposed copy, wider tiles) and in the session's start (.head/, 077155b), at the full sizes and at
# 8192; then each new kernel alone against the interpreter, compute-sanitizer, the C launcher. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session30c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
for size in full 8192; do
  for tree in now head; do
    dir=.; [ $tree = head ] && dir=.head
    if [ $size = full ]; then progs="mm mm_bf16 aat"; sizes=""; else progs="mm mm_bf16"; sizes="-s m=8192 -s n=8192 -s q=8192"; fi
    (cd $dir && timeout 200 python3 -m tiler bench $progs $sizes --tensor-cores --repeat 10 \
      --json "$log/bench-$size-$tree.json" > "$log/bench-$size-$tree.log" 2>&1
     echo "bench $size $tree rc=$? $(( $(date +%s) - start )) s")
    grep -E "^│ (tiled|cuBLAS|untiled)|^[a-z_0-9]+ \(" "$log/bench-$size-$tree.log" | head -14
  done
done
timeout 100 python3 experiments/verify/sweep.py experiments/verify/jobs/session30c.txt 2>&1 | tee "$log/sweep.log" \
  | grep -E "^==| ms|failed"
echo "== $(( $(date +%s) - start )) s"
D=experiments/verify/tma_debug.py
for s in 37 264 1000; do timeout 100 python3 $D benchmarks/mm.fut 2048 $s 2>&1 | grep "nan " | tee -a "$log/debug.log"; done
for p in benchmarks/mm.fut benchmarks/mm_bf16.fut; do
  timeout 100 python3 $D $p 8192 264 2>&1 | grep "nan " | tee -a "$log/debug.log"
done
for tool in memcheck racecheck; do
  for hint in 2048 8192; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 $D benchmarks/mm.fut $hint 264 \
      > "$log/sanitize-$tool-$hint.log" 2>&1
    echo "$tool $hint rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool-$hint.log" | tail -1)"
  done
done
python3 -m tiler compile benchmarks/mm.fut --tensor-cores --arch sm_90a -s m=2048 -s n=2048 -s q=2048 \
  --no-launch-timing -o experiments/verify/tma_harness/kernel.cu > "$log/harness-build.log" 2>&1
(cd experiments/verify/tma_harness && nvcc -gencode arch=compute_90a,code=sm_90a -O3 -DAB -o "$log/harness" harness.cu) \
  >> "$log/harness-build.log" 2>&1
for n in 256 1000 2048; do timeout 60 "$log/harness" $n 2>&1 | tee -a "$log/harness.log"; done
rm -f "$log/harness" experiments/verify/tma_harness/kernel.cu
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session30c-logs.tgz" -C "$out" logs
