#!/bin/bash
# Nineteenth session, second: f64 products on sm_90's m16n8k8 (this tree),
# against chunks of 32 (.v1), m16n8k4 in chunks of 32 (.v2), and register
# tiles of 8 x 8 (.v3) and 4 x 16 (.v4) points a thread by a tuning file.
set -u
out=$(realpath -m "${OUT:-session19b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-200} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ [a-zA-Z]|^mm" "$log/bench-$name.log" | head -40
  echo "== $(( $(date +%s) - start )) s"
}
run f64-k8 . mm_f64 --tensor-cores
run f64-k8-c32 .v1 mm_f64 --tensor-cores
run f64-k4-c32 .v2 mm_f64 --tensor-cores
run f64-k8-8x8 .v3 mm_f64 --tensor-cores
run f64-k8-4x16 .v4 mm_f64 --tensor-cores
run f64-k8-8192 . mm_f64 --tensor-cores -s m=8192 -s n=8192 -s q=8192
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
