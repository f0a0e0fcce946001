#!/bin/bash
# Twenty-third session, first call: tiles in groups of 8 rows (analyse/raster.py) against the session's start
# (.baseline/, 3ba1ed9), same call: the products' benchmarks with and without --tensor-cores, mm at 8192^3,
# and other group heights on the TF32 product. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session23a}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout 240 python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (tiled|cuBLAS|tensor)|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -24
  echo "== $(( $(date +%s) - start )) s"
}
big="-s m=8192 -s n=8192 -s q=8192"
run base-tc .baseline mm mm_bf16 mm_f64 mm_rows --tensor-cores
run now-tc . mm mm_bf16 mm_f64 mm_rows --tensor-cores
run base-ieee .baseline mm mm_rows mm_f64
run now-ieee . mm mm_rows mm_f64
run base-tc8k .baseline mm --tensor-cores $big
run now-tc8k . mm --tensor-cores $big
run g4-tc8k .g4 mm --tensor-cores $big
run g16-tc8k .g16 mm --tensor-cores $big
run base-ieee8k .baseline mm $big
run now-ieee8k . mm $big
run base-aat .baseline aat --tensor-cores
run now-aat . aat --tensor-cores
tar -czf "$out/session23a-logs.tgz" -C "$out" logs && rm -rf "$log"
