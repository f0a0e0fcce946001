#!/bin/bash
# Eighteenth session, variants of mm_bf16's kernel on the matrix units at
# 4096^3 (`tiler bench mm_bf16`, each tree in turn): this tree (chunks of
# 64, 3 cp.async stages, 2 blocks an SM), .v1/ (chunks of 32, 4 stages),
# .v2/ (chunks of 64, 4 stages: one block an SM), .v3/ (this tree with each
# step's fragments loaded during the step before). Logs to $OUT, packed.
set -u
out=$(realpath -m "${OUT:-session18b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-200} python3 -m tiler bench "$@" --repeat 20 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (tiled|cuBLAS)|^mm" "$log/bench-$name.log" | head -30
  echo "== $(( $(date +%s) - start )) s"
}
for v in ${VARIANTS:-now:. v1:.v1 v2:.v2 v3:.v3}; do
  run ${v%%:*} ${v#*:} ${BENCH:-mm_bf16}
done
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
