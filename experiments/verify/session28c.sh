#!/bin/bash
# Twenty-eighth session, third call (issue 58): f64 products in chunks of 8 on sm_90 (target.MATRIX_CHUNKS_SM90)
# against the session's start (.head/, ccb637f), sizes known and not; `tiler bench mm_f64 --tensor-cores` in
# both trees; the products' GPU tests, memcheck and racecheck on the f64 ones. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28c}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
V=$(realpath experiments/verify/variants.py)
B=$(realpath benchmarks)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${T:-150} python3 "$V" "$@" > "$log/$name.log" 2>&1; echo "== $name rc=$? $(( $(date +%s) - start )) s")
  grep -v "^\s*$" "$log/$name.log" | grep -E " ms|failed|Error|error" | head -20
}
S4=m=4096,n=4096,q=4096
S8=m=8192,n=8192,q=8192
TC=tensor_cores=1
run f64-4k-head .head $B/mm_f64.fut $S4 head:$TC head-nohint:$TC,hint=0
run f64-4k . $B/mm_f64.fut $S4 now:$TC now-nohint:$TC,hint=0 nohint-c16:$TC,hint=0,chunk=16 --torch f64 --operands A,B0
run f64-8k-head .head $B/mm_f64.fut $S8 head:$TC
run f64-8k . $B/mm_f64.fut $S8 now:$TC now-nohint:$TC,hint=0 --torch f64 --operands A,B0
bench() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout 200 python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "bench $name rc=$?")
  grep -E "^│ (tiled|cuBLAS|untiled)" "$log/bench-$name.log" | head -8
  echo "== $(( $(date +%s) - start )) s"
}
bench head .head mm_f64 --tensor-cores
bench now . mm_f64 --tensor-cores
timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "tensor_cores_match or f64" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
san() {  # name, tool, args...
  local name=$1 tool=$2; shift 2
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench "$@" --repeat 1 \
    > "$log/san-$name-$tool.log" 2>&1; echo "$name $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/san-$name-$tool.log" | tail -1)"
}
for tool in memcheck racecheck; do
  san mm_f64 $tool mm_f64 --tensor-cores -s m=300 -s n=301 -s q=261 &
  san atbt_f64 $tool tests/programs/tensor_cores/mm_atbt_f64.fut --tensor-cores -s m=130 -s n=37 -s k=131 &
done
wait
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session28c-logs.tgz" -C "$out" logs
