#!/bin/bash
# Twenty-ninth session, seventh call (issue 58): `tiler bench mm_bf16 aat --tensor-cores` in this tree (TMA copies)
# and in the session's start (.head/, 0c2e9af), one call. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session29g}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
for tree in now head; do
  dir=.; [ $tree = head ] && dir=.head
  (cd $dir && timeout 260 python3 -m tiler bench mm_bf16 aat --tensor-cores --repeat 10 --json "$log/bench-$tree.json" \
    > "$log/bench-$tree.log" 2>&1; echo "bench $tree rc=$? $(( $(date +%s) - start )) s")
  grep -E "^│ (tiled|cuBLAS|untiled)|^[a-z_0-9]+ \(" "$log/bench-$tree.log" | head -12
done
tar -czf "$out/session29g-logs.tgz" -C "$out" logs
