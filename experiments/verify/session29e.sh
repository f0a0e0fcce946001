#!/bin/bash
# Twenty-ninth session, fifth call (issue 58): the TMA products with the maps where sm_90's parameters put them
# (tma.padding), against the interpreter, under compute-sanitizer, and timed against the same kernels copied by
# cp.async (--no-tma) and PyTorch at the same precision. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session29e}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
D=experiments/verify/tma_debug.py
timeout 100 python3 $D tests/programs/tensor_cores/mm_abt_f32.fut 2048 1000 2>&1 | grep "nan " | tee "$log/debug.log"
V=$(realpath experiments/verify/variants.py)
B=$(realpath benchmarks)
ABT=$(realpath tests/programs/tensor_cores/mm_abt_f32.fut)
for s in 4096 8192; do
  S=m=$s,n=$s,q=$s
  timeout 150 python3 "$V" $ABT $S tma:tensor_cores=1 cp:tensor_cores=1,no_tma=1 --torch tf32 --operands A,B \
    2>&1 | tee "$log/abt-$s.log" | grep -E " ms|failed"
  timeout 150 python3 "$V" $B/mm_bf16.fut $S tma: cp:no_tma=1 --torch bf16 --operands A,B0 \
    2>&1 | tee "$log/bf16-$s.log" | grep -E " ms|failed"
done
timeout 150 python3 "$V" $B/aat.fut n=4096,d=4096 tma:tensor_cores=1 cp:tensor_cores=1,no_tma=1 2>&1 \
  | tee "$log/aat-4096.log" | grep -E " ms|failed"
timeout 150 python3 "$V" $B/mm_bf16.fut m=256,n=256,q=256 tma: cp:no_tma=1 2>&1 | tee "$log/bf16-256.log" | grep -E " ms|failed"
echo "== $(( $(date +%s) - start )) s"
timeout 280 python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py -k "copied_by_tma or looped_fallback" \
  > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
echo "== $(( $(date +%s) - start )) s"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 $D tests/programs/tensor_cores/mm_abt_f32.fut 2048 264 \
    > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) $(grep 'nan ' "$log/sanitize-$tool.log" | head -1)"
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session29e-logs.tgz" -C "$out" logs
