#!/bin/bash
# Twenty-second session, sixth call, an experiment for issue 58: the matrix-unit products with two cp.async
# stages instead of three (.s2/), against this checkout's tiler at HEAD (.s3/), in the same call:
# `tiler bench mm mm_bf16 aat --tensor-cores` and mm at 8192^3. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session22f}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout 150 python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (tiled|cuBLAS|tensor)|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -20
  echo "== $(( $(date +%s) - start )) s"
}
run three .s3 mm mm_bf16 --tensor-cores
run two .s2 mm mm_bf16 --tensor-cores
run three8k .s3 mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
run two8k .s2 mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
tar -czf "$out/session22f-logs.tgz" -C "$out" logs && rm -rf "$log"
