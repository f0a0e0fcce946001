#!/bin/bash
# Seventeenth session, fifth call: 16-bit products on the matrix units by
# default. (1) The GPU tests of the 16-bit programs, the tensor-core
# products and speculation's program, beside memcheck and racecheck of
# mm_bf16's default kernels; (2) `tiler bench mm mm_f64 mm_bf16
# --tensor-cores` at the full sizes, against cuBLAS at each precision. On a
# GPU host after `source .gpu/bootstrap`. Logs to $OUT, packed.
set -u
out=$(realpath -m "${OUT:-session17e}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py tests/test_float16.py \
   -k "mm_bf16 or tensor_cores or masked_dot or 16_bit" > "$log/gpu-tests.log" 2>&1) &
for tool in memcheck racecheck; do
  (timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench mm_bf16 -s m=300 -s n=301 \
     -s q=257 --repeat 1 > "$log/san-mm_bf16-$tool.log" 2>&1; echo "mm_bf16 $tool rc=$?" >> "$log/sanitizer.txt") &
done
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
timeout ${BENCH_S:-240} python3 -m tiler bench mm mm_f64 mm_bf16 --tensor-cores --repeat 10 --json "$log/bench.json" \
  > "$log/bench.log" 2>&1
echo "bench rc=$?"; grep -E "^│ [a-zA-Z]|^mm" "$log/bench.log" | head -60
echo "== $(( $(date +%s) - start )) s"
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
