#!/bin/bash
# Nineteenth session, fourth: TF32's B tile (row-major: its columns
# adjacent) read four columns a load with the warp's columns permuted (and
# the staging store permuted back), .v1, and the same without rounding to
# TF32 (.v2: the rounding's cost, an upper bound), against this tree; and
# memcheck/racecheck of mm_atbt_f64 --tensor-cores at sizes no tile divides.
set -u
out=$(realpath -m "${OUT:-session19d}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
san() {  # name, tool, args...
  local name=$1 tool=$2; shift 2
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench "$@" --repeat 1 \
    > "$log/san-$name-$tool.log" 2>&1; echo "$name $tool rc=$?" >> "$log/sanitizer.txt"
}
for tool in memcheck racecheck; do
  san atbt_f64 $tool tests/programs/tensor_cores/mm_atbt_f64.fut --tensor-cores -s m=130 -s n=37 -s k=131 &
  san atbt_f64b $tool tests/programs/tensor_cores/mm_atbt_f64.fut --tensor-cores -s m=200 -s n=301 -s k=260 &
done
wait
sort "$log/sanitizer.txt"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-200} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ [a-zA-Z]|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -40
  echo "== $(( $(date +%s) - start )) s"
}
run tf32-now . mm --tensor-cores
run tf32-permuted .v1 mm --tensor-cores
run tf32-unrounded .v2 mm --tensor-cores
run tf32-permuted-8192 .v1 mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
run tf32-now-8192 . mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
