#!/bin/bash
# Nineteenth session, first: f64 products on sm_90's m16n8k{4,8,16} (two
# side by side a 16 x 16 fragment) instead of m8n8k4, and their tiles copied
# in 16-byte vectors. (1) GPU tests of the tensor-core programs and
# memcheck/racecheck of mm_f64 --tensor-cores at sizes no tile divides, in
# this tree; (2) `tiler bench mm_f64 --tensor-cores` in .baseline/ (the
# session's start), this tree (k16, vectors), .v1 (k16, scalar copies), .v2
# (k8), .v3 (k16, chunks of 32), .v4 (k4). Logs to $OUT, packed.
set -u
out=$(realpath -m "${OUT:-session19a}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py tests/test_tensor_cores.py \
   -k "tensor_cores or mm_f64 or f64" > "$log/gpu-tests.log" 2>&1) &
for tool in memcheck racecheck; do
  (timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench mm_f64 --tensor-cores -s m=300 \
     -s n=301 -s q=261 --repeat 1 > "$log/san-mm_f64-$tool.log" 2>&1; echo "mm_f64 tc $tool rc=$?" >> "$log/sanitizer.txt") &
  (timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench mm_f64 --tensor-cores -s m=300 \
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
run f64-start .baseline mm_f64 --tensor-cores
run f64-k16 . mm_f64 --tensor-cores
run f64-k16-scalar .v1 mm_f64 --tensor-cores
run f64-k8 .v2 mm_f64 --tensor-cores
run f64-k16-c32 .v3 mm_f64 --tensor-cores
run f64-k4 .v4 mm_f64 --tensor-cores
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
