#!/bin/bash
# Twenty-fourth session, second call: (1) what hand-written 2.5-D blocking reaches on the 25-point star
# (experiments/windows/march.py, issue 56); (2) the benchmarks whose fissioned versions now race the kernel as
# written first (2837d4f), mlp and attention_bf16, in the tree before that change (.base23/, 3ba1ed9) and this
# one, in the same call, each benchmark in its own run. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session24b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 150 python3 experiments/windows/march.py 512 > "$log/march.log" 2>&1; echo "march rc=$?"
cat "$log/march.log" | grep -v "^ *$" | tail -40
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, benchmark
  local name=$1 tree=$2 b=$3
  (cd "$tree" && timeout 110 python3 -m tiler bench "$b" --repeat 10 --json "$log/bench-$name-$b.json" \
    > "$log/bench-$name-$b.log" 2>&1; echo "$name $b rc=$?")
  grep -E "^│ (untiled|tiled) |^[a-z_0-9]+ \(" "$log/bench-$name-$b.log" | head -6
  echo "== $(( $(date +%s) - start )) s"
}
for b in attention_bf16 mlp; do run now . $b; run base .base23 $b; done
tar -czf "$out/session24b-logs.tgz" -C "$out" logs && rm -rf "$log"
