#!/bin/bash
# Nineteenth session, fifth: TF32 products in chunks of 32 (.v1), two
# blocks an SM (.v2), against this tree (chunks of 16, one block an SM).
set -u
out=$(realpath -m "${OUT:-session19e}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-200} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ tiled|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -40
  echo "== $(( $(date +%s) - start )) s"
}
run now . mm mm_rows --tensor-cores
run c32 .v1 mm mm_rows --tensor-cores
run two .v2 mm mm_rows --tensor-cores
run now-8192 . mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
run c32-8192 .v1 mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
run two-8192 .v2 mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
