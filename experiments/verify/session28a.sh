#!/bin/bash
# Twenty-eighth session, first call (issue 58): product shapes timed in one process each, the session's start
# (.head/, ccb637f) beside this tree: TF32 128 x 256 tiles (m64n256 instructions), bf16 the same, f64 blocks an
# SM and register tiles, the IEEE product's register tiles. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28a}")
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
run tf32-4k-head .head $B/mm.fut $S4 head:$TC
run tf32-4k . $B/mm.fut $S4 now:$TC r8x16:$TC,register_tile=8x16 r16x8:$TC,register_tile=16x8 \
  r16x8c16:$TC,register_tile=16x8,chunk=16 r8x16c16:$TC,register_tile=8x16,chunk=16 \
  --torch tf32 --operands A,B0
run tf32-8k . $B/mm.fut $S8 now:$TC r16x8:$TC,register_tile=16x8 r8x16:$TC,register_tile=8x16 --torch tf32 --operands A,B0
run tf32-8k-head .head $B/mm.fut $S8 head:$TC
run bf16-4k . $B/mm_bf16.fut $S4 now: r16x8:register_tile=16x8 r8x16:register_tile=8x16 --torch bf16 --operands A,B0
run bf16-4k-head .head $B/mm_bf16.fut $S4 head:
run f64-4k . $B/mm_f64.fut $S4 now:$TC mb0:$TC,min_blocks=0 mb2:$TC,min_blocks=2 r8x8:$TC,register_tile=8x8 \
  r4x16:$TC,register_tile=4x16 r8x4mb2:$TC,register_tile=8x4,min_blocks=2 c32mb2:$TC,chunk=32,min_blocks=2 \
  r4x4mb2:$TC,register_tile=4x4,min_blocks=2 --torch f64 --operands A,B0
run ieee-4k . $B/mm.fut $S4 now: r8x16:register_tile=8x16 r16x8:register_tile=16x8 mb2:min_blocks=2 --torch f32 --operands A,B0
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session28a-logs.tgz" -C "$out" logs
