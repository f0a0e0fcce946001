#!/bin/bash
# Eighteenth session, third: f64 products on mma.sync (m8n8k4) from tiles
# laid out for the units (chunks of 16, lines padded by 32 bytes), against
# .v1/ (df6aeb8: WMMA from the register tile's layout). (1) The GPU tests of
# the tensor-core programs and memcheck/racecheck of mm_f64 --tensor-cores
# at sizes no tile divides; (2) `tiler bench mm_f64 --tensor-cores` in both
# trees, and mm at 8192 (TF32 and IEEE). Logs to $OUT, packed.
set -u
out=$(realpath -m "${OUT:-session18c}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
   -k "tensor_cores or mm_f64" > "$log/gpu-tests.log" 2>&1) &
for tool in memcheck racecheck; do
  (timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench mm_f64 --tensor-cores -s m=300 \
     -s n=301 -s q=261 --repeat 1 > "$log/san-mm_f64-$tool.log" 2>&1; echo "mm_f64 tc $tool rc=$?" >> "$log/sanitizer.txt") &
  (timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench mm_f64 --tensor-cores -s m=300 \
     -s n=296 -s q=264 --repeat 1 > "$log/san-mm_f64b-$tool.log" 2>&1; echo "mm_f64 tc b $tool rc=$?" >> "$log/sanitizer.txt") &
done
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-200} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ [a-zA-Z]|^mm" "$log/bench-$name.log" | head -40
  echo "== $(( $(date +%s) - start )) s"
}
run f64-now . mm_f64 --tensor-cores
run f64-before .v1 mm_f64 --tensor-cores
run mm8192 . mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
