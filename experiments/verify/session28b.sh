#!/bin/bash
# Twenty-eighth session, second call (issue 58): f64 products two blocks an SM in chunks of 8 (no spills) against
# one block (the default) and ptxas's own choice (spills 16 bytes); TF32 with both tiles read through descriptors
# (A Btᵀ) against mm's B tile read into registers, 4096 and 8192. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
V=$(realpath experiments/verify/variants.py)
B=$(realpath benchmarks)
ABT=$(realpath experiments/wgmma/abt/mm_abt_f32.fut)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${T:-150} python3 "$V" "$@" > "$log/$name.log" 2>&1; echo "== $name rc=$? $(( $(date +%s) - start )) s")
  grep -v "^\s*$" "$log/$name.log" | grep -E " ms|failed|Error|error" | head -20
}
S4=m=4096,n=4096,q=4096
S8=m=8192,n=8192,q=8192
TC=tensor_cores=1
run f64-4k . $B/mm_f64.fut $S4 now:$TC mb0:$TC,min_blocks=0 mb2c8:$TC,min_blocks=2,chunk=8 \
  mb2c8r8x4:$TC,min_blocks=2,chunk=8,register_tile=8x4 mb1c8:$TC,min_blocks=1,chunk=8 --torch f64 --operands A,B0
run f64-8k . $B/mm_f64.fut $S8 now:$TC mb2c8:$TC,min_blocks=2,chunk=8 mb2c8r8x4:$TC,min_blocks=2,chunk=8,register_tile=8x4 \
  --torch f64 --operands A,B0
run tf32-4k . $B/mm.fut $S4 mm:$TC --torch tf32 --operands A,B0
run abt-4k . $ABT $S4 abt:$TC abt8x16:$TC,register_tile=8x16 abt16x8:$TC,register_tile=16x8
run tf32-8k . $B/mm.fut $S8 mm:$TC --torch tf32 --operands A,B0
run abt-8k . $ABT $S8 abt:$TC abt8x16:$TC,register_tile=8x16 abt16x8:$TC,register_tile=16x8
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session28b-logs.tgz" -C "$out" logs
