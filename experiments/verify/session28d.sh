#!/bin/bash
# Twenty-eighth session, fourth call (issue 58): TF32's registers-as-A chunk loading each step's registers just
# before its instructions (.rsx/, a scratch tree) against this tree; f64 products' tiles in groups of 8 rows now
# that their kernel keeps two blocks an SM. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28d}")
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
for round in 1 2; do
  run tf32-4k-now$round . $B/mm.fut $S4 now:$TC --torch tf32 --operands A,B0
  run tf32-4k-rsx$round .rsx $B/mm.fut $S4 rsx:$TC
done
run tf32-8k-now . $B/mm.fut $S8 now:$TC --torch tf32 --operands A,B0
run tf32-8k-rsx .rsx $B/mm.fut $S8 rsx:$TC
run rows-rsx .rsx $B/mm_rows.fut m=2048,n=2048,q=2048 rsx:$TC
run rows-now . $B/mm_rows.fut m=2048,n=2048,q=2048 now:$TC
run f64-4k . $B/mm_f64.fut $S4 now:$TC g8:$TC,group_rows=8 --torch f64 --operands A,B0
run f64-8k . $B/mm_f64.fut $S8 now:$TC g8:$TC,group_rows=8
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session28d-logs.tgz" -C "$out" logs
