#!/bin/bash
# Twenty-eighth session, fifth call (issue 58): the final tree. The f64 products' GPU tests (chunks of 8 with the
# sizes known, 16 under a grid loop), the products' fuzz, and mm_f64 with and without its sizes known against
# the session's start (.head/, ccb637f) in the same call. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28e}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 240 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "chunks_of_one or tensor_cores_match or f64 or groups_of_rows" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
echo "== $(( $(date +%s) - start )) s"
timeout 150 python3 -m tiler fuzz 60 --seed 46000 --gpu --products > "$log/fuzz-products.log" 2>&1
echo "fuzz products rc=$? $(tail -2 "$log/fuzz-products.log" | tr '\n' ' ')"
echo "== $(( $(date +%s) - start )) s"
V=$(realpath experiments/verify/variants.py)
B=$(realpath benchmarks)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${T:-150} python3 "$V" "$@" > "$log/$name.log" 2>&1; echo "== $name rc=$? $(( $(date +%s) - start )) s")
  grep -v "^\s*$" "$log/$name.log" | grep -E " ms|failed|Error|error" | head -20
}
S4=m=4096,n=4096,q=4096
run f64-head .head $B/mm_f64.fut $S4 head:tensor_cores=1 head-nohint:tensor_cores=1,hint=0
run f64-now . $B/mm_f64.fut $S4 now:tensor_cores=1 now-nohint:tensor_cores=1,hint=0 --torch f64 --operands A,B0
(timeout 200 python3 -m tiler bench mm_f64 mm_bf16 --tensor-cores --repeat 10 --json "$log/bench-now.json" \
  > "$log/bench-now.log" 2>&1; echo "bench now rc=$?")
grep -E "^│ (tiled|cuBLAS|untiled)|^[a-z_0-9]+ \(" "$log/bench-now.log" | head -12
echo "== total $(( $(date +%s) - start )) s"
cp "$log/bench-now.json" "$out/session28e-2026-11-30-h200-bench-now.json"
tar -czf "$out/session28e-logs.tgz" -C "$out" logs
