#!/bin/bash
# Twenty-eighth session, sixth call (issue 58, exploration): the IEEE f32 product's plan options (chunk, blocks
# an SM, tile shapes, buffering) at 4096^3 and 8192^3 against SGEMM, one process each. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28f}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
V=$(realpath experiments/verify/variants.py)
B=$(realpath benchmarks)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${T:-200} python3 "$V" "$@" > "$log/$name.log" 2>&1; echo "== $name rc=$? $(( $(date +%s) - start )) s")
  grep -v "^\s*$" "$log/$name.log" | grep -E " ms|failed|Error|error" | head -20
}
run ieee-4k . $B/mm.fut m=4096,n=4096,q=4096 now: c32:chunk=32 c8:chunk=8 mb1:min_blocks=1 g8:group_rows=8 \
  t32x8:tile=8x32 r4x8:register_tile=4x8 r8x4:register_tile=8x4 db:double_buffer=1 c32mb1:chunk=32,min_blocks=1 \
  --torch f32 --operands A,B0
run ieee-8k . $B/mm.fut m=8192,n=8192,q=8192 now: c32:chunk=32 g8:group_rows=8 --torch f32 --operands A,B0
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session28f-logs.tgz" -C "$out" logs
